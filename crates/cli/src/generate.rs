//! `bisolve generate`: new solvable levels, made by playing backwards from a solved position.
//!
//! The recipe follows the one DeepMind used for Boxoban:
//!
//! 1. **Room**: start with walls only and carve floor along a random walk in the room's
//!    interior, stamping one of five small patterns at each step and turning with probability
//!    0.35 (about 25 steps for a 10x10 room, more for larger ones). The floor is connected.
//! 2. **Goals**: put the goals and the player on distinct random floor squares, and a box on
//!    every goal: the solved position.
//! 3. **Reverse play**: pull boxes away from the goals. A pull read backwards is a push, so
//!    every position reached can be solved. Boxoban pulls along random walks and keeps the
//!    position that scores best (box swaps times distance from the goals); here the pulls are
//!    explored breadth first instead, in rounds of at most 5,000 new positions, each round
//!    starting from a random position of the previous round's deepest layer, and the start is
//!    a position of the last deepest layer. A small room's positions are all visited in the
//!    first round, so its start is as far from solved as the room allows. On 10x10 rooms with
//!    4 boxes this made the median level need 13 pushes, against 4 to 7 with Boxoban-style
//!    random walks (tried with several pull rates and walk lengths).
//! 4. **Check**: solve the level with the engine on one thread (within `--max-states` and
//!    `--time-limit`), replay the solution, and keep the level if the solution has at least
//!    `--min-pushes` pushes and the level is new.
//!
//! Every random choice comes from a SplitMix64 generator seeded from `--seed` and the number of
//! the attempt, and the solve runs on one thread with a states limit, so a seed gives the same
//! levels, byte for byte, on any machine (unless a solve hits the time limit, which is only a
//! safety net).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use bisolve_board::Level;

use crate::args::GenerateArgs;
use bisolve_engine::Plan;

use crate::config::{limits, plan};
use crate::output::{count as plural, warn, Exit, Out};
use crate::record::checked_solution;
use crate::sok::{write_collection, Layout, SokLevel, SokSolution};
use crate::timeline::Timeline;

/// Smallest and largest room side, walls included.
const SIDES: std::ops::RangeInclusive<usize> = 5..=60;

/// Probability that the carving walk turns at a step.
const TURN: f64 = 0.35;

/// Carving steps per square of the room's interior (Boxoban: 25 steps for 8x8).
const CARVE_PER_SQUARE: f64 = 25.0 / 64.0;

/// Positions the reverse play may visit per candidate, over all its rounds.
const REVERSE_STATES: usize = 50_000;

/// Breadth-first rounds of reverse play.
const REVERSE_ROUNDS: usize = 10;

/// Patterns stamped around the walk's position (3x3, row by row).
const MASKS: [[u8; 9]; 5] = [
    [0, 0, 0, 1, 1, 1, 0, 0, 0],
    [0, 1, 0, 0, 1, 0, 0, 1, 0],
    [0, 0, 0, 1, 1, 0, 0, 1, 0],
    [0, 0, 0, 1, 1, 0, 1, 1, 0],
    [0, 0, 0, 0, 1, 1, 0, 1, 0],
];

/// The four directions as grid offsets: left, up, right, down.
const DIRS: [(isize, isize); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

/// SplitMix64: a small, fast generator whose output depends only on its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for attempt `attempt` of a run with `seed`.
    pub fn new(seed: u64, attempt: u64) -> Rng {
        let mut mixer = Rng(seed);
        let base = mixer.next_u64();
        Rng(base ^ attempt.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

/// What to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Room width, walls included.
    pub width: usize,
    /// Room height, walls included.
    pub height: usize,
    /// Boxes.
    pub boxes: usize,
}

impl Spec {
    /// Reads `WxH` and checks the sizes.
    pub fn parse(size: &str, boxes: usize) -> Result<Spec> {
        let bad = || anyhow!("--size {size:?}: expected WIDTHxHEIGHT, such as 10x10");
        let (w, h) = size.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let width: usize = w.trim().parse().map_err(|_| bad())?;
        let height: usize = h.trim().parse().map_err(|_| bad())?;
        if !SIDES.contains(&width) || !SIDES.contains(&height) {
            bail!(
                "--size {size}: each side must be {} to {} squares, walls included",
                SIDES.start(),
                SIDES.end()
            );
        }
        let interior = (width - 2) * (height - 2);
        if boxes == 0 || 2 * boxes + 1 > interior {
            bail!(
                "--boxes {boxes}: a {width}x{height} room has room for 1 to {} boxes",
                (interior.saturating_sub(1) / 2).max(1)
            );
        }
        Ok(Spec { width, height, boxes })
    }
}

/// One candidate level: its rows (XSB), before any check by the solver.
pub fn candidate(spec: &Spec, rng: &mut Rng) -> Option<Vec<String>> {
    let floor = carve(spec, rng);
    let mut cells: Vec<usize> = (0..floor.len()).filter(|&i| floor[i]).collect();
    if cells.len() < spec.boxes + 2 {
        return None;
    }
    // A partial Fisher-Yates shuffle picks the goals and the player's square.
    for i in 0..=spec.boxes {
        let j = i + rng.below(cells.len() - i);
        cells.swap(i, j);
    }
    let goals = cells[..spec.boxes].to_vec();
    let player = cells[spec.boxes];
    let (boxes, player) = reverse_play(spec, &floor, &goals, player, REVERSE_STATES, rng)?;
    Some(rows(spec, &floor, &goals, &boxes, player))
}

/// Floor squares carved by a random walk; the outer ring is always wall.
fn carve(spec: &Spec, rng: &mut Rng) -> Vec<bool> {
    let (w, h) = (spec.width, spec.height);
    let mut floor = vec![false; w * h];
    let steps = (((w - 2) * (h - 2)) as f64 * CARVE_PER_SQUARE).round().max(10.0) as usize;
    let (mut x, mut y) = (1 + rng.below(w - 2), 1 + rng.below(h - 2));
    let mut dir = DIRS[rng.below(4)];
    for _ in 0..steps {
        if rng.chance(TURN) {
            dir = DIRS[rng.below(4)];
        }
        x = x.saturating_add_signed(dir.0).clamp(1, w - 2);
        y = y.saturating_add_signed(dir.1).clamp(1, h - 2);
        let mask = &MASKS[rng.below(MASKS.len())];
        for (k, &on) in mask.iter().enumerate() {
            if on == 1 {
                let (mx, my) = (x + k % 3 - 1, y + k / 3 - 1);
                if mx > 0 && my > 0 && mx < w - 1 && my < h - 1 {
                    floor[my * w + mx] = true;
                }
            }
        }
    }
    floor
}

/// Plays backwards from the solved position, breadth first over pulls, in rounds: each round
/// visits every position that pulls reach from its root, layer by layer (positions with the
/// same boxes and the same player region are one, and none is visited twice over all rounds),
/// until its share of `states` runs out; the next round starts from a random position of the
/// deepest layer that is not solved. A small level's positions are all visited in the first
/// round, so its start is as far from solved as the room allows; on a large one the rounds
/// carry the boxes further than one breadth-first search could. Returns the last round's pick
/// (boxes by grid square, player), or `None` when no pull moves a box off the goals.
fn reverse_play(
    spec: &Spec,
    floor: &[bool],
    goals: &[usize],
    start_player: usize,
    states: usize,
    rng: &mut Rng,
) -> Option<(Vec<usize>, usize)> {
    let w = spec.width;
    let (mut parent, mut child) = (Fill::new(w, floor.len()), Fill::new(w, floor.len()));
    let mut boxes: Vec<u16> = goals.iter().map(|&g| g as u16).collect();
    boxes.sort_unstable();
    let key = |fill: &mut Fill, boxes: &[u16], player: usize| {
        let mut k = boxes.to_vec();
        k.push(fill.fill(floor, boxes, player) as u16);
        k
    };
    let mut seen = HashSet::new();
    seen.insert(key(&mut child, &boxes, start_player));
    let mut root = (boxes, start_player);
    let mut picked = None;
    for round in 1..=REVERSE_ROUNDS {
        let budget = states * round / REVERSE_ROUNDS;
        let mut layer = vec![root.clone()];
        let mut deepest = Vec::new();
        while !layer.is_empty() && seen.len() < budget {
            let mut next = Vec::new();
            'layer: for (boxes, player) in &layer {
                parent.fill(floor, boxes, *player);
                for (i, &b) in boxes.iter().enumerate() {
                    for (dx, dy) in DIRS {
                        // The player stands next to the box and steps away from it, pulling it.
                        let step = dy * w as isize + dx;
                        let stand = (b as usize).wrapping_add_signed(step);
                        let to = stand.wrapping_add_signed(step);
                        if !parent.reaches(stand) || !floor[to] || boxes.contains(&(to as u16)) {
                            continue;
                        }
                        let mut moved = boxes.clone();
                        moved[i] = stand as u16;
                        moved.sort_unstable();
                        if seen.insert(key(&mut child, &moved, to)) {
                            next.push((moved, to));
                            if seen.len() >= budget {
                                break 'layer;
                            }
                        }
                    }
                }
            }
            let unsolved: Vec<(Vec<u16>, usize)> = next
                .iter()
                .filter(|(b, _)| b.iter().any(|&c| !goals.contains(&(c as usize))))
                .cloned()
                .collect();
            if !unsolved.is_empty() {
                deepest = unsolved;
            }
            layer = next;
        }
        if deepest.is_empty() {
            break;
        }
        root = deepest.swap_remove(rng.below(deepest.len()));
        picked = Some(root.clone());
    }
    picked.map(|(boxes, player)| (boxes.into_iter().map(usize::from).collect(), player))
}

/// Flood fill of the player's region on the grid.
struct Fill {
    width: usize,
    queue: Vec<usize>,
    region: Vec<u32>,
    blocked: Vec<u32>,
    stamp: u32,
}

impl Fill {
    fn new(width: usize, n: usize) -> Fill {
        Fill { width, queue: Vec::new(), region: vec![0; n], blocked: vec![0; n], stamp: 0 }
    }

    /// Fills from `player` over floor without boxes; returns the region's smallest square.
    fn fill(&mut self, floor: &[bool], boxes: &[u16], player: usize) -> usize {
        self.stamp += 1;
        for &b in boxes {
            self.blocked[b as usize] = self.stamp;
        }
        self.region[player] = self.stamp;
        self.queue.clear();
        self.queue.push(player);
        let mut min = player;
        let mut i = 0;
        while i < self.queue.len() {
            let c = self.queue[i];
            i += 1;
            // The outer ring is wall, so every neighbour of a floor square is on the grid.
            for n in [c - 1, c + 1, c - self.width, c + self.width] {
                if floor[n] && self.blocked[n] != self.stamp && self.region[n] != self.stamp {
                    self.region[n] = self.stamp;
                    self.queue.push(n);
                    min = min.min(n);
                }
            }
        }
        min
    }

    /// True if the last fill reached `c`.
    fn reaches(&self, c: usize) -> bool {
        self.region[c] == self.stamp
    }
}

/// The level as XSB rows: walls that touch no floor (even diagonally) become blank, and the
/// picture is cropped to what is left.
fn rows(spec: &Spec, floor: &[bool], goals: &[usize], boxes: &[usize], player: usize) -> Vec<String> {
    let (w, h) = (spec.width, spec.height);
    let near_floor = |x: usize, y: usize| {
        (y.saturating_sub(1)..=(y + 1).min(h - 1))
            .any(|ny| (x.saturating_sub(1)..=(x + 1).min(w - 1)).any(|nx| floor[ny * w + nx]))
    };
    let mut grid: Vec<Vec<char>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let i = y * w + x;
                    match (floor[i], goals.contains(&i), boxes.contains(&i), i == player) {
                        (false, ..) if near_floor(x, y) => '#',
                        (false, ..) => ' ',
                        (true, true, true, _) => '*',
                        (true, false, true, _) => '$',
                        (true, true, false, true) => '+',
                        (true, false, false, true) => '@',
                        (true, true, false, false) => '.',
                        (true, false, false, false) => ' ',
                    }
                })
                .collect()
        })
        .collect();
    grid.retain(|row| row.iter().any(|&c| c != ' '));
    let left = grid.iter().filter_map(|r| r.iter().position(|&c| c != ' ')).min().unwrap_or(0);
    grid.iter().map(|r| r[left..].iter().collect::<String>().trim_end().to_string()).collect()
}

/// A level that passed every check.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Its rows.
    pub rows: Vec<String>,
    /// The solution found, replayed.
    pub lurd: String,
    /// Its moves.
    pub moves: usize,
    /// Its pushes.
    pub pushes: usize,
    /// The attempt (0-based) that made it.
    pub attempt: u64,
}

/// Why candidates were dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejected {
    /// The room was too small, or no pull moved a box off the goals.
    pub no_room: u64,
    /// Already made.
    pub duplicate: u64,
    /// Not solved within the limits.
    pub unsolved: u64,
    /// Solved with fewer pushes than asked for.
    pub too_easy: u64,
}

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Size and boxes.
    pub spec: Spec,
    /// Seed.
    pub seed: u64,
    /// Levels wanted.
    pub count: usize,
    /// Fewest pushes.
    pub min_pushes: usize,
    /// Most candidates.
    pub attempts: u64,
}

/// Makes levels until `count` pass or the attempts run out; `progress` hears of each one kept.
pub fn generate(
    settings: &Settings,
    plan: &Plan,
    limits: &bisolve_engine::Limits,
    cancel: &AtomicBool,
    mut progress: impl FnMut(&Generated, usize),
) -> Result<(Vec<Generated>, Rejected)> {
    let mut made = Vec::new();
    let mut rejected = Rejected::default();
    let mut seen = HashSet::new();
    for attempt in 0..settings.attempts {
        if made.len() >= settings.count || cancel.load(Ordering::Relaxed) {
            break;
        }
        let mut rng = Rng::new(settings.seed, attempt);
        let Some(rows) = candidate(&settings.spec, &mut rng) else {
            rejected.no_room += 1;
            continue;
        };
        if !seen.insert(rows.clone()) {
            rejected.duplicate += 1;
            continue;
        }
        let level = Level::parse(&rows.join("\n"))
            .map_err(|e| anyhow!("internal error: a generated level is invalid: {e}\n{}", rows.join("\n")))?;
        let report = plan.solve(&level, limits, cancel).map_err(|e| anyhow!("{e}"))?;
        let Some(lurd) = checked_solution(&level, &report)? else {
            rejected.unsolved += 1;
            continue;
        };
        let timeline = Timeline::from_lurd(&level, lurd)?;
        if timeline.n_pushes() < settings.min_pushes {
            rejected.too_easy += 1;
            continue;
        }
        let g = Generated {
            rows,
            lurd: lurd.to_string(),
            moves: timeline.moves().len(),
            pushes: timeline.n_pushes(),
            attempt,
        };
        made.push(g);
        progress(made.last().expect("just pushed"), made.len());
    }
    Ok((made, rejected))
}

/// Runs the generate command: the collection on standard output, progress on standard error.
pub fn run(args: &GenerateArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    let spec = Spec::parse(&args.size, args.boxes as usize)?;
    let count = args.count as usize;
    let attempts = args.attempts.unwrap_or(args.count.saturating_mul(100)).max(1);
    let settings = Settings { spec, seed: args.seed, count, min_pushes: args.min_pushes, attempts };
    let plan = plan(&args.search, 1)?.plan;
    let limits = limits(args.time_limit, None, Some(args.max_states), 1)?;
    let started = Instant::now();
    let (made, rejected) = generate(&settings, &plan, &limits, cancel, |g, n| {
        if !args.quiet {
            warn(&format!(
                "bisolve: level {n} of {count}: {}, {} (attempt {})",
                plural(g.pushes as u64, "push"),
                plural(g.moves as u64, "move"),
                g.attempt + 1
            ));
        }
    })?;
    let mut command = format!(
        "bisolve generate --seed {} --count {count} --size {}x{} --boxes {} --min-pushes {} --max-states {}",
        args.seed, spec.width, spec.height, spec.boxes, args.min_pushes, args.max_states,
    );
    let search = &args.search;
    for (flag, value) in [("--strategy", &search.strategy), ("--preset", &search.preset)] {
        if let Some(value) = value {
            command.push_str(&format!(" {flag} {}", value.trim()));
        }
    }
    if let Some(path) = &search.options_file {
        command.push_str(&format!(" --options {}", path.display()));
    }
    for assignment in &search.set {
        command.push_str(&format!(" --set {assignment}"));
    }
    if args.solutions {
        command.push_str(" --solutions");
    }
    let header = vec![
        command,
        format!(
            "{} levels, each solved by bisolve: the note under a board gives the size of that solution.",
            made.len()
        ),
    ];
    let levels: Vec<SokLevel> = made
        .iter()
        .enumerate()
        .map(|(i, g)| SokLevel {
            title: Some(format!("{}-{}", args.seed, i + 1)),
            rows: g.rows.clone(),
            metadata: vec![(
                "Comment".into(),
                format!("{}, {}", plural(g.moves as u64, "move"), plural(g.pushes as u64, "push")),
            )],
            solution: Some(SokSolution { lurd: g.lurd.clone(), moves: g.moves, pushes: g.pushes }),
        })
        .collect();
    let layout = if args.solutions { Layout::Sok } else { Layout::Xsb };
    if !levels.is_empty() {
        for line in write_collection(&header, &levels, layout, args.rle).lines() {
            out.line(line)?;
        }
    }
    if !args.quiet {
        let mut pushes: Vec<usize> = made.iter().map(|g| g.pushes).collect();
        pushes.sort_unstable();
        let range = match (pushes.first(), pushes.last()) {
            (Some(lo), Some(hi)) => format!("; pushes {lo} to {hi}, median {}", pushes[pushes.len() / 2]),
            _ => String::new(),
        };
        warn(&format!(
            "bisolve: made {} of {count} levels in {:.2} s from {} candidates{range} (dropped: {} too easy, {} not solved within the limits, {} duplicates, {} without room)",
            made.len(),
            started.elapsed().as_secs_f64(),
            made.len() as u64 + rejected.too_easy + rejected.unsolved + rejected.duplicate + rejected.no_room,
            rejected.too_easy,
            rejected.unsolved,
            rejected.duplicate,
            rejected.no_room,
        ));
    }
    Ok(if cancel.load(Ordering::Relaxed) {
        Exit::Interrupted
    } else if made.len() == count {
        Exit::Ok
    } else {
        warn(&format!("bisolve: made only {} of {count} levels in {attempts} attempts", made.len()));
        Exit::NotAllSolved
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::load_collection;
    use bisolve_engine::Limits;

    #[test]
    fn rng_is_fixed_by_its_seed() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::new(7, 3).next_u64(), Rng::new(7, 4).next_u64());
        assert_ne!(Rng::new(7, 3).next_u64(), Rng::new(8, 3).next_u64());
        let mut r = Rng::new(1, 0);
        let draws: Vec<usize> = (0..1000).map(|_| r.below(6)).collect();
        assert!(draws.iter().all(|&d| d < 6));
        assert!((0..6).all(|v| draws.contains(&v)));
    }

    #[test]
    fn sizes() {
        assert_eq!(Spec::parse("10x8", 4).unwrap(), Spec { width: 10, height: 8, boxes: 4 });
        assert_eq!(Spec::parse(" 7X7 ", 1).unwrap().width, 7);
        for bad in ["10", "x10", "10x", "4x10", "10x61", "ax b"] {
            assert!(Spec::parse(bad, 2).is_err(), "{bad}");
        }
        assert!(Spec::parse("5x5", 5).is_err());
        assert!(Spec::parse("10x10", 0).is_err());
    }

    #[test]
    fn candidates_are_valid_levels_within_the_size() {
        let spec = Spec { width: 9, height: 8, boxes: 3 };
        let mut valid = 0;
        for attempt in 0..40 {
            let Some(rows) = candidate(&spec, &mut Rng::new(11, attempt)) else { continue };
            assert!(rows.len() <= spec.height && rows.iter().all(|r| r.chars().count() <= spec.width));
            let level = Level::parse(&rows.join("\n")).unwrap_or_else(|e| panic!("{e}\n{}", rows.join("\n")));
            assert_eq!(level.board().n_boxes(), 3);
            assert!(level.start().boxes.iter().any(|&b| !level.board().is_goal(b)));
            valid += 1;
        }
        assert!(valid > 20, "only {valid} candidates of 40");
    }

    fn small_run(seed: u64) -> Vec<Generated> {
        let settings = Settings {
            spec: Spec { width: 8, height: 8, boxes: 2 },
            seed,
            count: 3,
            min_pushes: 4,
            attempts: 200,
        };
        let search = crate::args::SearchArgs {
            strategy: Some("bidirectional".into()),
            ..crate::args::SearchArgs::default()
        };
        let plan = crate::config::plan(&search, 1).expect("plan").plan;
        let limits = Limits { time: None, memory: Some(1 << 30), states: Some(200_000), progress: None };
        let (made, _) =
            generate(&settings, &plan, &limits, &AtomicBool::new(false), |_, _| {}).expect("runs");
        made
    }

    #[test]
    fn generated_levels_are_solvable_and_reproducible() {
        let made = small_run(5);
        assert_eq!(made.len(), 3);
        for g in &made {
            assert!(g.pushes >= 4);
            let level = Level::parse(&g.rows.join("\n")).expect("valid");
            let t = Timeline::from_lurd(&level, &g.lurd).expect("the solution replays");
            assert_eq!(t.n_pushes(), g.pushes);
        }
        let again = small_run(5);
        let rows = |v: &[Generated]| v.iter().map(|g| (g.rows.clone(), g.lurd.clone())).collect::<Vec<_>>();
        assert_eq!(rows(&made), rows(&again));
        assert_ne!(rows(&made), rows(&small_run(6)));
        // The XSB text parses back to the same boards.
        let levels: Vec<SokLevel> = made
            .iter()
            .map(|g| SokLevel {
                title: Some("t".into()),
                rows: g.rows.clone(),
                metadata: vec![],
                solution: None,
            })
            .collect();
        let text = write_collection(&[], &levels, Layout::Xsb, false);
        let c = load_collection(text.as_bytes()).expect("parses");
        assert_eq!(c.entries.len(), 3);
    }
}
