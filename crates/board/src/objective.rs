//! What makes one solution shorter than another: the lengths a solver or an optimizer
//! minimizes, first and second.

use std::fmt;
use std::str::FromStr;

/// Which length counts first when two solutions are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Objective {
    /// Fewer moves, then fewer pushes.
    #[default]
    Moves,
    /// Fewer pushes, then fewer moves.
    Pushes,
}

impl Objective {
    /// The sort key of a solution of `moves` and `pushes` (smaller is better).
    #[inline]
    pub fn key(self, moves: u32, pushes: u32) -> (u32, u32) {
        match self {
            Objective::Moves => (moves, pushes),
            Objective::Pushes => (pushes, moves),
        }
    }

    /// Moves and pushes back from a key.
    #[inline]
    pub fn unkey(self, key: (u32, u32)) -> (u32, u32) {
        match self {
            Objective::Moves => key,
            Objective::Pushes => (key.1, key.0),
        }
    }

    /// `moves` or `pushes`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Moves => "moves",
            Objective::Pushes => "pushes",
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Objective {
    type Err = String;

    fn from_str(s: &str) -> Result<Objective, String> {
        match s {
            "moves" => Ok(Objective::Moves),
            "pushes" => Ok(Objective::Pushes),
            _ => Err(format!("unknown objective {s:?}: use moves or pushes")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_by_the_objective_and_round_trip() {
        for o in [Objective::Moves, Objective::Pushes] {
            assert_eq!(o.unkey(o.key(30, 7)), (30, 7));
            assert_eq!(o.to_string().parse::<Objective>(), Ok(o));
        }
        // 20 moves with 8 pushes against 24 moves with 6 pushes.
        assert!(Objective::Moves.key(20, 8) < Objective::Moves.key(24, 6));
        assert!(Objective::Pushes.key(24, 6) < Objective::Pushes.key(20, 8));
        assert!("box-lines".parse::<Objective>().is_err());
    }
}
