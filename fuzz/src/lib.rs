//! Checks shared by the fuzz targets: an independent brute-force solver on the level's text, so
//! the engine's verdicts and `replay`'s answers can be compared with something that shares no
//! code with them.

use std::collections::{HashSet, VecDeque};

/// A level read straight from its XSB rows, without the board crate's analysis.
pub struct Grid {
    width: usize,
    wall: Vec<bool>,
    goal: Vec<bool>,
    boxes: Vec<usize>,
    player: usize,
}

impl Grid {
    /// Reads plain XSB rows (as `Level::rows` gives them). `None` without exactly one player.
    pub fn new(rows: &[String]) -> Option<Grid> {
        let height = rows.len() + 2;
        let width = rows.iter().map(|r| r.chars().count()).max()? + 2;
        // A border of walls all round, so no move leaves the grid.
        let mut wall = vec![true; width * height];
        let mut goal = vec![false; width * height];
        let mut boxes = Vec::new();
        let mut player = None;
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let i = (y + 1) * width + x + 1;
                wall[i] = ch == '#';
                goal[i] = matches!(ch, '.' | '*' | '+');
                if matches!(ch, '$' | '*') {
                    boxes.push(i);
                }
                if matches!(ch, '@' | '+') {
                    if player.is_some() {
                        return None;
                    }
                    player = Some(i);
                }
            }
        }
        Some(Grid { width, wall, goal, boxes, player: player? })
    }

    /// The start position.
    pub fn start(&self) -> (Vec<usize>, usize) {
        let mut boxes = self.boxes.clone();
        boxes.sort_unstable();
        (boxes, self.player)
    }

    fn step(&self, at: usize, dir: usize) -> usize {
        match dir {
            0 => at - 1,
            1 => at - self.width,
            2 => at + 1,
            _ => at + self.width,
        }
    }

    /// Replays LURD letters (`l u r d` walk, `L U R D` push); `Some((moves, pushes))` when every
    /// move is legal and every box ends on a goal.
    pub fn replay(&self, letters: &[(usize, bool)]) -> Option<(usize, usize)> {
        let (mut boxes, mut player) = self.start();
        let mut pushes = 0;
        for &(dir, push) in letters {
            let next = self.step(player, dir);
            if self.wall[next] {
                return None;
            }
            if let Some(k) = boxes.iter().position(|&b| b == next) {
                let to = self.step(next, dir);
                if !push || self.wall[to] || boxes.contains(&to) {
                    return None;
                }
                boxes[k] = to;
                pushes += 1;
            } else if push {
                return None;
            }
            player = next;
        }
        boxes.iter().all(|&b| self.goal[b]).then_some((letters.len(), pushes))
    }

    /// The smallest square the player can walk to without pushing.
    fn region(&self, boxes: &[usize], from: usize, seen: &mut [bool]) -> usize {
        seen.iter_mut().for_each(|s| *s = false);
        let mut stack = vec![from];
        seen[from] = true;
        let mut min = from;
        while let Some(at) = stack.pop() {
            min = min.min(at);
            for d in 0..4 {
                let n = self.step(at, d);
                if !self.wall[n] && !seen[n] && !boxes.contains(&n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        min
    }

    /// The fewest pushes that solve the level: `Some(Some(n))`, `Some(None)` when no sequence
    /// of pushes does, `None` when the search would visit more than `cap` positions.
    pub fn min_pushes(&self, cap: usize) -> Option<Option<usize>> {
        let solved = |boxes: &[usize]| boxes.iter().all(|&b| self.goal[b]);
        let (boxes, player) = self.start();
        let mut seen = vec![false; self.wall.len()];
        let start = (boxes.clone(), self.region(&boxes, player, &mut seen));
        if solved(&start.0) {
            return Some(Some(0));
        }
        let mut visited = HashSet::new();
        visited.insert(start.clone());
        let mut queue = VecDeque::from([(start, 0usize)]);
        while let Some(((boxes, player), depth)) = queue.pop_front() {
            self.region(&boxes, player, &mut seen);
            let reach = seen.clone();
            for (k, &b) in boxes.iter().enumerate() {
                for d in 0..4 {
                    let behind = self.step(b, d ^ 2);
                    let to = self.step(b, d);
                    if !reach[behind] || self.wall[to] || boxes.contains(&to) {
                        continue;
                    }
                    let mut next = boxes.clone();
                    next[k] = to;
                    next.sort_unstable();
                    if solved(&next) {
                        return Some(Some(depth + 1));
                    }
                    let normalized = self.region(&next, b, &mut seen);
                    if visited.insert((next.clone(), normalized)) {
                        if visited.len() > cap {
                            return None;
                        }
                        queue.push_back(((next, normalized), depth + 1));
                    }
                }
            }
        }
        Some(None)
    }
}

/// LURD letters as (direction, push), directions numbered l u r d; `None` for other letters.
pub fn letters(text: &str) -> Option<Vec<(usize, bool)>> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            let dir = "lurd".find(c.to_ascii_lowercase())?;
            Some((dir, c.is_ascii_uppercase()))
        })
        .collect()
}
