//! Command-line arguments (clap). Parsed here, then turned into the engine's types.

use std::path::PathBuf;

use bisolve_optimizer::Objective;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// bisolve: a parallel bidirectional Sokoban solver. Give it level files and it prints a
/// verified solution for each level as LURD moves (walks lower case, pushes upper case).
#[derive(Debug, Parser)]
#[command(
    name = "bisolve",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Exit status: 0 when every requested level was solved, 1 when some were not, 2 for invalid \
                  input or usage, 130 when interrupted. docs/options.md describes every --set key."
)]
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
    /// Check a solution, or every solution a SOK file stores: prints moves and pushes for each
    /// that solves its level and names the first bad move of each that does not; exits 0 when
    /// all are good.
    Verify(VerifyArgs),
    /// Solve every level of the given files and report solved counts, times, throughput and
    /// memory per file.
    Bench(BenchArgs),
    /// List the search strategies `--strategy` accepts and the portfolio members.
    Strategies,
    /// Print the search options as TOML (the preset, with `--options` and `--set` applied),
    /// for `--options FILE` to read back, then the presets.
    Options(OptionsArgs),
    /// Watch a solution: animated in the terminal, or written as SVG, GIF or SOK.
    Play(PlayArgs),
    /// Make new solvable levels by pulling boxes away from their goals (after the Boxoban recipe).
    Generate(GenerateArgs),
    /// Shorten a solution (given, or the best a SOK file stores for each level) by reordering its
    /// pushes and searching the positions near its path; prints the result, or writes it with
    /// --sok.
    Optimize(OptimizeArgs),
}

/// Which levels of a file.
#[derive(Debug, Args, Clone, Default)]
pub struct LevelSelect {
    /// Levels to use: a 1-based index in the file, a title, a range (2-10) or a list of those
    /// (1,4,7-9). Default: every level.
    #[arg(long, short = 'l', value_name = "N|TITLE|A-B|LIST")]
    pub level: Option<String>,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Level files (XSB, SOK or RLE rows; one level or a collection each) or directories of
    /// them (their .xsb, .sok and .txt files, in name order); `-` reads standard input.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub select: LevelSelect,
    /// Solve only every N-th of the chosen levels, from the I-th (1 <= I <= N), counting over
    /// all the files in order: N processes or machines with shards 1/N to N/N share a run.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Worker threads: default every core (0 too). 1 is deterministic.
    #[arg(long, short = 't', value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: Option<u32>,
    /// Time limit per level in seconds (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Seconds per level to shorten each solution found (fewer moves, never more pushes; see
    /// `bisolve optimize`). Default: a tenth of the time limit, at most 10; 0 skips it.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub optimize: Option<f64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Show progress on standard error: a line redrawn in place on a terminal (the default
    /// there, unless --json or --quiet), a plain line every 5 s elsewhere.
    #[arg(long)]
    pub progress: bool,
    /// One JSON object per level per line on stdout.
    #[arg(long)]
    pub json: bool,
    /// With --json, add the search options and what each test pruned to every record.
    #[arg(long, requires = "json")]
    pub stats: bool,
    /// Print only the summary line of each level, not the solution.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also print effort per direction, pruning per test and memory.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub export: ExportArgs,
}

/// What searches run: a preset of options, a file of them, and single keys changed.
#[derive(Debug, Args, Clone, Default)]
pub struct SearchArgs {
    /// Search strategy: `portfolio` (the default), or one of `bisolve strategies`. Short for
    /// `--set strategy=NAME`.
    #[arg(long, short = 's')]
    pub strategy: Option<String>,
    /// Prove the solution optimal: `pushes` (the fewest pushes, then moves) or `moves` (the
    /// fewest moves, then pushes), on all the threads. The strategy's solution comes first; a
    /// limit that stops the proof prints the shortest found and the lower bound reached. Short
    /// for `--set optimal=WHAT`.
    #[arg(long, value_name = "pushes|moves", value_parser = ["pushes", "moves"])]
    pub optimal: Option<String>,
    /// Start from these named options (`bisolve options` lists the presets). Default: default.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Read options from a TOML file, such as `bisolve options` writes, over the preset.
    #[arg(long = "options", value_name = "FILE")]
    pub options_file: Option<PathBuf>,
    /// Change one option, e.g. `--set push.freeze=false` (repeatable, applied last).
    /// `bisolve options` lists every key; docs/options.md says what each one does.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Limits of a search besides its time.
#[derive(Debug, Args, Clone, Default)]
pub struct LimitArgs {
    /// Memory limit per level for the search (visited table and open lists), e.g. 2G, 512M,
    /// 1.5GiB. Default: 60% of physical memory (divided by --jobs when several levels run at
    /// once).
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
    /// Stop each level after this many visited states: an effort budget that, unlike the time
    /// limit, does not depend on the machine or its load (with one thread, runs repeat
    /// exactly).
    #[arg(long, value_name = "N")]
    pub states: Option<usize>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Level files (each a collection).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The levels of each file to solve, as the solve command's `--level` takes them.
    #[command(flatten)]
    pub select: LevelSelect,
    /// Solve only every N-th of the chosen levels, from the I-th, counting over all the files.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Time limit per level in seconds (as for solving; `--states` gives an effort budget that
    /// does not depend on the machine instead).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Worker threads per level (0: every core).
    #[arg(long, short = 't', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: u32,
    /// Levels solved at once (throughput mode for many small levels).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: u32,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Write one JSON record per level, then one summary record per file, to this file.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct OptionsArgs {
    #[command(flatten)]
    pub search: SearchArgs,
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
    /// Also draw the level's parking plan: the order in which boxes come to their squares
    /// (letters A, B, ...), parking on the way included, as the default search counts it.
    #[arg(long)]
    pub plan: bool,
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
    /// The solution: LURD text, or the path of a file holding it. Without it, every
    /// `Solution` section the file stores is checked, level by level.
    pub solution: Option<String>,
    #[command(flatten)]
    pub select: LevelSelect,
}

#[derive(Debug, Args)]
pub struct OptimizeArgs {
    /// Level file.
    pub file: PathBuf,
    /// The solution: LURD text, or the path of a file holding it. Without it, the best
    /// `Solution` section the file stores for each level.
    pub solution: Option<String>,
    #[command(flatten)]
    pub select: LevelSelect,
    /// What to minimise: `moves` (then pushes) or `pushes` (then moves).
    #[arg(long, value_name = "moves|pushes", default_value = "moves", value_parser = parse_objective)]
    pub objective: Objective,
    /// Time limit per level in seconds; the best found by then is kept.
    #[arg(long, value_name = "SECS", default_value_t = 60.0, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Searches run at once, each on its own vicinity (default and 0: every core).
    #[arg(long, short = 't', value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: Option<u32>,
    /// One JSON object per level per line: lengths before and after, and the solution.
    #[arg(long)]
    pub json: bool,
    /// Write the level(s) with the optimised solutions as a SOK collection.
    #[arg(long, value_name = "OUT")]
    pub sok: Option<PathBuf>,
    /// Write solutions run-length encoded (`3lU2R`) in the SOK file.
    #[arg(long)]
    pub rle: bool,
}

fn parse_objective(s: &str) -> Result<Objective, String> {
    s.parse()
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
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Worker threads when the level has to be solved first: default every core (0 too).
    #[arg(long, short = 't', value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: Option<u32>,
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
    /// Keep only levels whose solution (the one bisolve finds) has at least this many pushes
    /// (0 keeps every level, however short).
    #[arg(long, value_name = "P", default_value_t = 10)]
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
    #[arg(long, value_name = "SECS", default_value_t = 30.0, allow_negative_numbers = true)]
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

/// A share of a run (`--shard I/N`): the levels whose 0-based position among those chosen is
/// `I - 1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// True if the level at 0-based `position` among those chosen is this shard's.
    pub fn takes(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// This shard's part of `items`, the first of which stands at 0-based `first` among those
    /// chosen.
    pub fn part<T>(self, items: Vec<T>, first: usize) -> Vec<T> {
        items.into_iter().enumerate().filter(|(k, _)| self.takes(first + k)).map(|(_, t)| t).collect()
    }
}

/// Reads `I/N` with 1 <= I <= N.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected I/N with 1 <= I <= N, such as 2/8, not {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (usize, usize) =
        (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The thread count asked for: `None` (not given) and 0 mean every core the process may use
/// (`available_parallelism`, which respects container and affinity limits).
pub fn threads_or_all(threads: Option<u32>) -> u32 {
    match threads {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()).min(1024) as u32,
    }
}

/// The most seconds the solve command spends shortening a solution unless `--optimize` says.
pub const DEFAULT_OPTIMIZE_CAP: f64 = 10.0;

/// The time limit per level of every command that solves levels (solving, `bench`, `play`),
/// in seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 600.0;

impl SolveArgs {
    /// The time to shorten each solution found: `--optimize`, or a tenth of the time limit up
    /// to [`DEFAULT_OPTIMIZE_CAP`] seconds.
    pub fn optimize_seconds(&self) -> f64 {
        self.optimize.unwrap_or((self.time_limit / 10.0).min(DEFAULT_OPTIMIZE_CAP))
    }

    /// True if `--threads` was given (and not 0, which means the default, every core).
    pub fn threads_given(&self) -> bool {
        self.threads.is_some_and(|n| n > 0)
    }
}

impl ExportArgs {
    /// True if some picture or file is asked for.
    pub fn any(&self) -> bool {
        self.svg.is_some() || self.gif.is_some() || self.sok.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_shard, Cli, Shard};
    use clap::CommandFactory;
    use std::collections::BTreeSet;

    /// Every argument of the command line, by id, over all its subcommands.
    fn argument_ids(command: &clap::Command, ids: &mut BTreeSet<String>) {
        for arg in command.get_arguments() {
            ids.insert(arg.get_id().to_string());
        }
        for sub in command.get_subcommands() {
            argument_ids(sub, ids);
        }
    }

    /// The everyday options only: the research switches are keys of the options
    /// (`--set`, docs/options.md), not arguments.
    #[test]
    fn shards_split_the_levels_between_them() {
        let shards: Vec<Shard> = (1..=3).map(|i| parse_shard(&format!("{i}/3")).expect("valid")).collect();
        for position in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.takes(position)).count(), 1, "level {position}");
        }
        assert!(shards[0].takes(0) && shards[1].takes(1) && shards[2].takes(5));
        assert_eq!(parse_shard("1/1"), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "/3", "-1/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_command_line_stays_small() {
        let command = Cli::command();
        command.clone().debug_assert();
        let mut ids = BTreeSet::new();
        argument_ids(&command, &mut ids);
        ids.remove("help");
        ids.remove("version");
        assert!(ids.len() <= 48, "{} arguments: {ids:?}", ids.len());
        assert!(!ids.iter().any(|id| id.starts_with("no_")), "{ids:?}");
    }
}
