//! Command-line arguments (clap). Parsed here, then turned into the engine's types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// bisolve: a parallel bidirectional Sokoban solver.
///
/// Give it a level file (one level or a whole collection, XSB/SOK/RLE) and it prints a
/// verified solution for each level as LURD moves (walks lower case, pushes upper case).
///
/// Exit status: 0 when every requested level was solved, 1 when some were not, 2 for
/// invalid input or usage, 130 when interrupted.
#[derive(Debug, Parser)]
#[command(name = "bisolve", version, args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub solve: SolveArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Draw levels, optionally with dead squares and the player's reach marked.
    Show(ShowArgs),
    /// Check a solution: prints moves and pushes and exits 0 when it solves the level,
    /// names the first bad move and exits 1 otherwise.
    Verify(VerifyArgs),
    /// Solve every level of the given files and report solved counts, times, throughput and
    /// memory per file.
    Bench(BenchArgs),
    /// List the search strategies `--strategy` accepts.
    Strategies,
    /// Watch a solution: animated in the terminal, or written as SVG, GIF or SOK.
    Play(PlayArgs),
    /// Make new solvable levels by pulling boxes away from their goals (after the Boxoban recipe).
    Generate(GenerateArgs),
}

/// Which level of a file.
#[derive(Debug, Args, Clone)]
pub struct LevelSelect {
    /// Level to use: 1-based index in the file, or its title. Default: every level.
    #[arg(long, short = 'l', value_name = "N|TITLE")]
    pub level: Option<String>,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Level file (XSB, SOK or RLE rows; one level or a collection).
    #[arg(value_name = "FILE", required = true)]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub select: LevelSelect,
    /// Worker threads. 1 is deterministic.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Time limit per level in seconds (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub time_limit: f64,
    /// Memory limit for the search (visited table and open lists), e.g. 2G, 512M, 1.5GiB.
    /// Default: 60% of physical memory.
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
    /// Stop after this many visited states.
    #[arg(long, value_name = "N")]
    pub states: Option<usize>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// One JSON object per level per line on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print only the summary line of each level, not the solution.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also print effort per direction, pruning per test and memory.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub pruning: PruningArgs,
    #[command(flatten)]
    pub export: ExportArgs,
}

/// Which searches run: one strategy, or a portfolio.
#[derive(Debug, Args, Clone)]
pub struct SearchArgs {
    /// Search strategy (see `bisolve strategies`); `portfolio`, the default, races the
    /// members `--portfolio` names (by default `bi-fess` alone: no mix has measured better).
    #[arg(long, short = 's', default_value = "portfolio")]
    pub strategy: String,
    /// Portfolio members, comma-separated (see `bisolve strategies`); implies
    /// `--strategy portfolio`.
    #[arg(long, value_name = "A,B,...")]
    pub portfolio: Option<String>,
    /// Whether portfolio members share one visited table (a forward state of one member can
    /// meet a backward state of another) or each keeps its own.
    #[arg(long, value_enum, default_value_t = TablesArg::Shared)]
    pub portfolio_tables: TablesArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TablesArg {
    Separate,
    Shared,
}

/// Switches for every pruning technique, so each one's effect can be measured.
#[derive(Debug, Args, Clone, Default)]
pub struct PruningArgs {
    /// Forward lower bound: min-cost matching of boxes to goals (default), nearest goal, or
    /// none. With a portfolio, overrides every member's.
    #[arg(long, value_enum)]
    pub bound: Option<BoundArg>,
    /// Backward lower bound: matching of boxes to start squares (default), nearest, or none.
    /// With a portfolio, overrides every member's, in every run of the default restarts too.
    #[arg(long, value_enum)]
    pub pull_bound: Option<BoundArg>,
    /// Do not prune pushes onto dead squares.
    #[arg(long)]
    pub no_dead_squares: bool,
    /// Do not prune freeze deadlocks.
    #[arg(long)]
    pub no_freeze: bool,
    /// Do not force boxes in one-way tunnels to be pushed first (sound tunnel handling).
    #[arg(long)]
    pub no_tunnels: bool,
    /// Do not treat boxes frozen on goals as walls when measuring distances to other goals.
    #[arg(long)]
    pub no_frozen_goals: bool,
    /// Do not prune closed diagonal deadlocks (empty squares shut in along a diagonal by boxes
    /// and walls that can never all be finished).
    #[arg(long)]
    pub no_diagonals: bool,
    /// Do not restrict the search to pushes into PI-corrals (nor detect corral deadlocks).
    #[arg(long)]
    pub no_corrals: bool,
    /// Do not search a PI-corral's fence boxes on their own to prove the corral dead.
    #[arg(long)]
    pub no_corral_deadlocks: bool,
    /// Do not search the boxes fencing off a box the player cannot reach to prove that the
    /// player can never come to push it, nor any box near it, again (shut-in boxes).
    #[arg(long)]
    pub no_shut_in: bool,
    /// Do not prune pushes that leave two boxes in a position they alone can never finish.
    #[arg(long)]
    pub no_pair_deadlocks: bool,
    /// Do not search the boxes around a goal nothing can enter any more to prove it sealed
    /// for good (sealed-goal deadlocks).
    #[arg(long)]
    pub no_sealed_goals: bool,
    /// Do not search the boxes knotted around a box just pushed (three to eight, joined through
    /// the eight squares around each) to prove that none can get more than two squares away
    /// and not all onto goals there (jam deadlocks).
    #[arg(long)]
    pub no_jams: bool,
    /// In the small searches of the corral deadlocks, sealed goals and jams, leave out the
    /// boxes frozen on goals near the searched ones (by default they stand there as walls).
    #[arg(long)]
    pub no_frozen_walls: bool,
    /// Search the areas round clusters of goals (the squares within one to three steps of
    /// them) alone, boxes leaving and coming in across their borders, to prove that their
    /// goals can no longer all be filled after a push onto one (goal-area deadlocks; off by
    /// default: measured neutral).
    #[arg(long)]
    pub goal_areas: bool,
    /// Do not take a box that reaches a goal room's entrance on to the room's next goal in
    /// one move (goal macros; also turns off the goal cut).
    #[arg(long)]
    pub no_goal_macros: bool,
    /// Keep every push in a state that has a goal macro (by default only the macros are
    /// kept there, in searches with a backward side).
    #[arg(long)]
    pub no_goal_cut: bool,
    /// Let boxes into a goal room with one entrance by plain pushes too, and push the boxes
    /// inside it again (room discipline off).
    #[arg(long)]
    pub no_room_discipline: bool,
    /// Give goal rooms that no packing order fills one box at a time no parking plan
    /// (without one, such a room is searched like any other squares).
    #[arg(long)]
    pub no_room_plans: bool,
    /// Do not prune pulls onto squares that cannot return to a start square.
    #[arg(long)]
    pub no_pull_dead_squares: bool,
    /// Do not prune pulls that leave two boxes in a position they alone can never bring back
    /// to start squares.
    #[arg(long)]
    pub no_pull_pair_deadlocks: bool,
    /// Do not prune backward states the start position can never be pushed into (a start box
    /// frozen off the state's squares, with squares that reach none of them dead).
    #[arg(long)]
    pub no_pull_start_freeze: bool,

    /// Search the boxes around a start square nothing can be pulled onto any more, to prove it
    /// sealed for good (the backward mirror of the sealed goals; off by default).
    #[arg(long)]
    pub pull_sealed_starts: bool,
    /// Prune pulls that leave three to eight boxes knotted so that, alone on the board, none
    /// can be pulled more than two squares away and not all onto start squares there (the
    /// backward mirror of the jam deadlocks; off by default).
    #[arg(long)]
    pub pull_jams: bool,
    /// Prune backward states whose player is shut in a region without the start player's
    /// square that no pulls of the boxes around it can open (confined players; off by
    /// default, on in the `bwd-fess-confined` member).
    #[arg(long)]
    pub pull_confinement: bool,
    /// Take a box that reaches the start of a goal's way in on to that goal in one move when
    /// the goal is next in its packing order (packing macros; off by default).
    #[arg(long)]
    pub packing_macros: bool,
    /// Give goal macros also to goal rooms entered through several corridor squares, not
    /// only to rooms with a single entrance (off by default).
    #[arg(long)]
    pub room_entrances: bool,
    /// Feature cells count targets filled in their packing order instead of boxes on
    /// targets (the packing feature of the feature-cell ordering, both directions; off by
    /// default).
    #[arg(long)]
    pub packing: bool,
    /// Prune pushes that leave three boxes in a position they alone can never finish (a table
    /// built before the search, on boards of up to 100 live squares). Off by default
    /// (measured neutral, and the table takes up to a second to build).
    #[arg(long)]
    pub triple_deadlocks: bool,
    /// Box moves: each expansion moves a box to every square it can reach by pushes of it
    /// alone (the player walking between them), every position on the way a child (after
    /// Festival's move model). Forward searches; off by default (an expansion's cost grows
    /// with the square of the board's size).
    #[arg(long)]
    pub box_moves: bool,
    /// Box moves for the backward searches: each expansion pulls a box to every square it can
    /// reach by pulls of it alone, every position on the way a child. Off by default.
    #[arg(long)]
    pub pull_box_moves: bool,
    /// Do not break ties in favour of pushing the box the last move pushed (inertia).
    #[arg(long)]
    pub no_inertia: bool,
    /// Do not run bridges: forward searches from the start aimed at the state where the
    /// backward search came closest to the start.
    #[arg(long)]
    pub no_bridges: bool,
    /// Do not run the perimeter: the bridges' one larger search from the start, ordered by
    /// how far the boxes are from their start squares, recording the start's neighbourhood
    /// for the backward search to meet.
    #[arg(long)]
    pub no_perimeter: bool,
    /// Do not run the perimeter early in the first run of a portfolio that restarts: by
    /// default its forward search runs 200,000 expansions of the perimeter before its first
    /// own expansion (instead of 400,000 after 250,000), so its dive starts among the start's
    /// neighbourhood. The restarts' runs keep the late one.
    #[arg(long)]
    pub no_early_perimeter: bool,
    /// Live targets: the bridges aim only at backward states not proved out of the start's
    /// reach (the player shut in the wrong region for good). Off by default (measured
    /// neutral).
    #[arg(long)]
    pub live_targets: bool,
    /// Backward bridges: the backward search also runs short searches from the solved
    /// position towards the state where the forward search came closest to the goals (the
    /// mirror of the bridges).
    #[arg(long)]
    pub backward_bridges: bool,
    /// A thread that holds a forward and a backward search (a portfolio thread, or one thread
    /// of a single bidirectional strategy) gives them equal turns (by default the forward
    /// search gets a quarter).
    #[arg(long)]
    pub equal_turns: bool,
    /// Workers per backward search of a portfolio, each diving on its own best-first order
    /// from the states the others hand it (default 1, and 4 after a restart, see
    /// `--restart-after`; giving `--dives` turns the default restart off). The
    /// workers of a search share its thread, or its threads where the threads outnumber the
    /// searches (then each search has at least as many workers as threads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub dives: Option<u32>,
    /// Workers per forward search of a portfolio, as `--dives` (default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub forward_dives: Option<u32>,
    /// A portfolio not done after SECS starts again from scratch with 2 backward dives and box
    /// moves, and then goes on through the rest of the default restarts (see `--restarts`),
    /// the last for the rest of its time limit. Default: 10 s where there are at least 2
    /// threads and no more than the searches (2 threads for the default portfolio), else none.
    #[arg(long, value_name = "SECS", conflicts_with = "no_restart")]
    pub restart_after: Option<f64>,
    /// The restarts, as `SECS:DIVES[:box|single][:fessK][:packing|unpacked][:pull-BOUND]` items
    /// (`10:2:box,6:4:box:packing,6:4:box:packing:fess8,5:4:box:pull-nearest,22:8,5:3:box`, the
    /// default): how long each run goes before the next starts from scratch, the backward dives
    /// of that next run (`--forward-dives` applies to every run), optionally its moves (`box`
    /// turns box moves on for both sides, `single` off), optionally its feature-cell turn
    /// (`fessK`: members ordered by feature cells take a cell in turn every K-th expansion in
    /// that run), optionally its forward feature cells (`packing`: goals packed in their
    /// packing order, the forward half of `--packing`; `unpacked`: boxes on goals), and
    /// optionally its backward bound (`pull-nearest`, `pull-matching` or `pull-zero`, as `--pull-bound` for
    /// that run). The last runs for the rest of the time limit.
    /// Restarts are timed, so a one-thread run with them is no longer deterministic.
    #[arg(long, value_name = "LIST", conflicts_with_all = ["no_restart", "restart_after"])]
    pub restarts: Option<String>,
    /// No restart (see `--restart-after`).
    #[arg(long)]
    pub no_restart: bool,
    /// Restart once only: the first restart (2 backward dives, box moves) runs for the rest of
    /// the time limit (see `--restart-after`; with `--restarts`, keeps the first of the list).
    #[arg(long)]
    pub no_second_restart: bool,
    /// Each restart starts from an empty visited table. By default a restart keeps the table:
    /// the new run searches from scratch, but the states earlier runs reached are meetings for
    /// its other side.
    #[arg(long)]
    pub no_keep_table: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BoundArg {
    Matching,
    Nearest,
    Zero,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Level files (each a collection).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Time limit per level in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    /// Worker threads per level.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Levels solved at once (throughput mode for many small levels).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: u32,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Memory limit per level, e.g. 2G. Default: 60% of physical memory divided by --jobs.
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
    /// Stop each level after this many visited states: an effort budget that, unlike the time
    /// limit, does not depend on the machine or its load (with one thread, runs repeat
    /// exactly).
    #[arg(long, value_name = "N")]
    pub states: Option<usize>,
    /// Write one JSON record per level, then one summary record per file, to this file.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub pruning: PruningArgs,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Level file.
    pub file: PathBuf,
    #[command(flatten)]
    pub select: LevelSelect,
    /// Mark dead squares for pushing (x, or red).
    #[arg(long)]
    pub dead: bool,
    /// Mark dead squares for pulling (y, or magenta).
    #[arg(long)]
    pub pull_dead: bool,
    /// Mark the squares the player can walk to (-, or green).
    #[arg(long)]
    pub reach: bool,
    /// Colour: auto uses ANSI colours on a terminal when NO_COLOR is not set.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Also draw the level, with the overlays asked for, as an SVG picture in this file.
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Level file.
    pub file: PathBuf,
    /// The solution: LURD text, or the path of a file holding it.
    pub solution: String,
    #[command(flatten)]
    pub select: LevelSelect,
}

/// Pictures and files of solutions, for the solve command and `play`.
#[derive(Debug, Args, Clone, Default)]
pub struct ExportArgs {
    /// Write an animated SVG picture of the solution (one file per level: OUT-N.svg when
    /// several levels are solved).
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
    /// Write an animated GIF of the solution (OUT-N.gif when several levels are solved).
    #[arg(long, value_name = "OUT")]
    pub gif: Option<PathBuf>,
    /// Write the level(s) with their solutions as a SOK collection.
    #[arg(long, value_name = "OUT")]
    pub sok: Option<PathBuf>,
    /// Write solutions run-length encoded (`3lU2R`) in the SOK file.
    #[arg(long)]
    pub rle: bool,
    /// Moves per second in pictures and playback.
    #[arg(long, value_name = "MOVES", default_value_t = 8.0)]
    pub speed: f64,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Level file.
    pub file: PathBuf,
    /// The solution: LURD text, or the path of a file holding it. Default: the first solution
    /// stored in the file that solves the level, else one found by solving it.
    pub solution: Option<String>,
    #[command(flatten)]
    pub select: LevelSelect,
    /// Print plain pictures, one after another, even on a terminal.
    #[arg(long)]
    pub plain: bool,
    /// With plain pictures, print only every K-th move (the start and the end always).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Time limit in seconds when the level has to be solved first.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub time_limit: f64,
    /// Worker threads when the level has to be solved first.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub export: ExportArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Seed of the random choices: the same seed and options give the same levels.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many levels to make.
    #[arg(long, short = 'n', default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// Size of the room, walls included, as WIDTHxHEIGHT (5x5 to 60x60).
    #[arg(long, value_name = "WxH", default_value = "10x10")]
    pub size: String,
    /// Boxes per level.
    #[arg(long, short = 'b', default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=200))]
    pub boxes: u64,
    /// Keep only levels whose solution (the one bisolve finds) has at least this many pushes.
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub min_pushes: usize,
    /// Give up after this many candidate levels. Default: 100 per level asked for.
    #[arg(long, value_name = "N")]
    pub attempts: Option<u64>,
    /// States a candidate's solve may visit (a limit that keeps the output the same on any
    /// machine).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_states: usize,
    /// Time limit per candidate's solve in seconds (a safety net; a level that hits it makes
    /// the output depend on the machine's speed).
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub time_limit: f64,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Write SOK with each level's solution (`Solution` sections) instead of plain XSB.
    #[arg(long)]
    pub solutions: bool,
    /// With --solutions, write the moves run-length encoded.
    #[arg(long)]
    pub rle: bool,
    /// Do not report progress on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}
