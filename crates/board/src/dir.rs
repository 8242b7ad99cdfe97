//! The four directions of movement and their LURD letters.

use std::fmt;

/// A direction of movement on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// Towards row 0.
    Up = 0,
    /// Towards the last column.
    Right = 1,
    /// Towards the last row.
    Down = 2,
    /// Towards column 0.
    Left = 3,
}

impl Dir {
    /// All four directions, in index order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// The direction with this index (`0..4`); higher bits are ignored.
    #[inline]
    pub const fn from_index(i: usize) -> Dir {
        match i & 3 {
            0 => Dir::Up,
            1 => Dir::Right,
            2 => Dir::Down,
            _ => Dir::Left,
        }
    }

    /// The index of this direction (`0..4`), for neighbour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Dir {
        Dir::from_index(self as usize + 2)
    }

    /// True for `Left` and `Right`.
    #[inline]
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// The two directions at right angles to this one.
    #[inline]
    pub const fn perpendicular(self) -> [Dir; 2] {
        if self.is_horizontal() {
            [Dir::Up, Dir::Down]
        } else {
            [Dir::Left, Dir::Right]
        }
    }

    /// Column and row offset of one step.
    #[inline]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (0, -1),
            Dir::Right => (1, 0),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
        }
    }

    /// The LURD letter of a walk (`false`) or a push (`true`) in this direction.
    #[inline]
    pub const fn lurd(self, push: bool) -> char {
        match (self, push) {
            (Dir::Up, false) => 'u',
            (Dir::Right, false) => 'r',
            (Dir::Down, false) => 'd',
            (Dir::Left, false) => 'l',
            (Dir::Up, true) => 'U',
            (Dir::Right, true) => 'R',
            (Dir::Down, true) => 'D',
            (Dir::Left, true) => 'L',
        }
    }

    /// Reads a LURD letter: the direction and whether it is written as a push (upper case).
    #[inline]
    pub const fn from_lurd(c: char) -> Option<(Dir, bool)> {
        Some(match c {
            'u' => (Dir::Up, false),
            'r' => (Dir::Right, false),
            'd' => (Dir::Down, false),
            'l' => (Dir::Left, false),
            'U' => (Dir::Up, true),
            'R' => (Dir::Right, true),
            'D' => (Dir::Down, true),
            'L' => (Dir::Left, true),
            _ => return None,
        })
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Dir::Up => "up",
            Dir::Right => "right",
            Dir::Down => "down",
            Dir::Left => "left",
        };
        f.write_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_is_an_involution_and_lurd_round_trips() {
        for d in Dir::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
            assert_eq!(Dir::from_index(d.index()), d);
            for push in [false, true] {
                assert_eq!(Dir::from_lurd(d.lurd(push)), Some((d, push)));
            }
            let (dx, dy) = d.delta();
            let (ox, oy) = d.opposite().delta();
            assert_eq!((dx + ox, dy + oy), (0, 0));
            for p in d.perpendicular() {
                assert_ne!(p.is_horizontal(), d.is_horizontal());
            }
        }
        assert_eq!(Dir::from_lurd('x'), None);
    }
}
