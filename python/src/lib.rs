//! `bisolve._native`: the solver's engine for Python. The `bisolve` package re-exports it
//! (`bisolve/__init__.py`); `bisolve/_native.pyi` gives its types.
//!
//! Solving releases the GIL. The calling thread waits in short slices and checks for signals
//! between them, so Ctrl-C (`KeyboardInterrupt`) cancels a running solve within milliseconds.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bisolve_board::moves::{parse_lurd, replay as replay_steps};
use bisolve_board::{load_collection, Level as BoardLevel, LevelError};
use bisolve_engine::{default_memory, preset as engine_preset, Limits, Outcome, Planned, Report};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The smallest memory limit accepted, as on the command line: below it even the first tables
/// of a search would not fit.
const MIN_MEMORY: usize = 1 << 20;

/// How long the waiting thread sleeps between its checks for Ctrl-C and progress.
const POLL: Duration = Duration::from_millis(10);

/// The planes of `Level.to_array()`, in order.
const PLANES: [&str; 5] = ["wall", "floor", "goal", "box", "player"];

/// A valid Sokoban level.
///
/// Make one with `bisolve.parse(text)` or `Level.from_grid(array)`. `str(level)` gives its XSB
/// text. Levels are immutable and can be shared between threads.
#[pyclass(frozen, module = "bisolve")]
#[derive(Clone)]
struct Level {
    inner: Arc<BoardLevel>,
}

#[pymethods]
impl Level {
    /// The title the file gives the level, or None.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.inner.title()
    }

    /// The 1-based position of the level in the text it was parsed from.
    #[getter]
    fn index(&self) -> usize {
        self.inner.index()
    }

    /// Columns of the board (the longest row).
    #[getter]
    fn width(&self) -> usize {
        self.inner.board().width()
    }

    /// Rows of the board.
    #[getter]
    fn height(&self) -> usize {
        self.inner.board().height()
    }

    /// The number of boxes (and of goals).
    #[getter]
    fn boxes(&self) -> usize {
        self.inner.board().n_boxes()
    }

    fn __str__(&self) -> String {
        self.inner.rows().join("\n")
    }

    fn __repr__(&self) -> String {
        let title = self.inner.title().map_or(String::new(), |t| format!(" {t:?}"));
        format!(
            "<bisolve.Level{title}: {}x{}, {}>",
            self.width(),
            self.height(),
            if self.boxes() == 1 { "1 box".to_string() } else { format!("{} boxes", self.boxes()) }
        )
    }

    /// The level as a numpy array of shape (5, height, width) and dtype uint8: one plane each
    /// for wall, floor, goal, box and player, holding 1 where the square has it. Floor is
    /// every square the player's area covers, under boxes, goals and the player too; squares
    /// outside the walls are 0 in every plane. Needs numpy.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let numpy = py.import("numpy")?;
        let bytes = PyBytes::new(py, &planes(&self.inner));
        let flat = numpy.call_method1("frombuffer", (bytes, numpy.getattr("uint8")?))?;
        flat.call_method1("reshape", ((PLANES.len(), self.height(), self.width()),))?.call_method0("copy")
    }

    /// A level from an array in the convention of `to_array()`: a numpy array or nested
    /// sequences of shape (5, height, width), any value other than 0 meaning the square has
    /// that plane's thing. Floor matters only as the opposite of wall: a square with no wall
    /// is floor. Raises ValueError for a grid of another shape or a level that is not valid.
    #[staticmethod]
    #[pyo3(signature = (grid, title=None))]
    fn from_grid(grid: &Bound<'_, PyAny>, title: Option<&str>) -> PyResult<Level> {
        let grid = match grid.hasattr("tolist")? {
            true => grid.call_method0("tolist")?,
            false => grid.clone(),
        };
        let planes: Vec<Vec<Vec<f64>>> = grid
            .extract()
            .map_err(|_| PyValueError::new_err("from_grid: expected a (5, height, width) grid of numbers"))?;
        let text = grid_text(&planes, title).map_err(PyValueError::new_err)?;
        let mut levels = parse_text(&text)?;
        Ok(levels.remove(0))
    }

    fn __eq__(&self, other: &Level) -> bool {
        self.inner.rows() == other.inner.rows()
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.rows().hash(&mut h);
        h.finish()
    }
}

/// The five planes of a level, plane by plane, row by row.
fn planes(level: &BoardLevel) -> Vec<u8> {
    let board = level.board();
    let (w, h) = (board.width(), board.height());
    let mut out = vec![0u8; PLANES.len() * w * h];
    for (y, row) in level.rows().iter().enumerate().take(h) {
        for (x, ch) in row.chars().enumerate().take(w) {
            let at = y * w + x;
            let has = [
                ch == '#',
                board.cell(x, y).is_some(),
                matches!(ch, '.' | '*' | '+'),
                matches!(ch, '$' | '*'),
                matches!(ch, '@' | '+'),
            ];
            for (plane, &on) in has.iter().enumerate() {
                if on {
                    out[plane * w * h + at] = 1;
                }
            }
        }
    }
    out
}

/// The XSB text of a (5, height, width) grid of planes.
fn grid_text(planes: &[Vec<Vec<f64>>], title: Option<&str>) -> Result<String, String> {
    if planes.len() != PLANES.len() {
        return Err(format!(
            "from_grid: expected {} planes ({}), got {}",
            PLANES.len(),
            PLANES.join(", "),
            planes.len()
        ));
    }
    let height = planes[0].len();
    let width = planes[0].first().map_or(0, Vec::len);
    if height == 0 || width == 0 {
        return Err("from_grid: the grid is empty".into());
    }
    if planes.iter().any(|p| p.len() != height || p.iter().any(|row| row.len() != width)) {
        return Err("from_grid: every plane must have the same height and width".into());
    }
    let mut text = String::new();
    if let Some(t) = title {
        text.push_str(&format!("; {t}\n"));
    }
    let row = |y: usize| -> String {
        let on = |plane: usize, x: usize| planes[plane][y][x] != 0.0;
        (0..width)
            .map(|x| match (on(0, x), on(2, x), on(3, x), on(4, x)) {
                (true, ..) => '#',
                (_, true, true, _) => '*',
                (_, false, true, _) => '$',
                (_, true, _, true) => '+',
                (_, false, _, true) => '@',
                (_, true, ..) => '.',
                _ => ' ',
            })
            .collect()
    };
    for line in (0..height).map(row) {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    Ok(text)
}

/// Every level of `text`; a ValueError names the first that is not valid.
fn parse_text(text: &str) -> PyResult<Vec<Level>> {
    let collection = load_collection(text.as_bytes()).map_err(|e| PyValueError::new_err(format!("{e}")))?;
    collection
        .entries
        .into_iter()
        .map(|entry| match entry.level {
            Ok(level) => Ok(Level { inner: Arc::new(level) }),
            Err(e) => Err(level_error(&e)),
        })
        .collect()
}

fn level_error(e: &LevelError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Parses XSB or SOK text (one level or a whole collection, Boxoban's files too) into its
/// levels, in order. Raises ValueError, naming the level and line, when a level is not valid
/// or nothing in the text is a level.
#[pyfunction]
fn parse(text: &str) -> PyResult<Vec<Level>> {
    parse_text(text)
}

/// The result of a solve.
#[pyclass(frozen, get_all, name = "Result", module = "bisolve")]
struct SolveResult {
    /// True when a solution was found (and replayed on the level).
    solved: bool,
    /// "solved", "unsolvable" (proved), "timeout", "memory" or "cancelled".
    status: &'static str,
    /// The solution as LURD moves (lower case walks, upper case pushes), or None.
    solution: Option<String>,
    /// Player moves of the solution, or None.
    moves: Option<usize>,
    /// Pushes of the solution, or None.
    pushes: Option<usize>,
    /// Box lines of the solution (pushes of one box in one straight line count once), or None.
    box_lines: Option<usize>,
    /// Box changes of the solution (each push of a box other than the last pushed), or None.
    box_changes: Option<usize>,
    /// Wall-clock seconds the solve took.
    seconds: f64,
    /// Positions the search generated.
    states: u64,
    /// With optimal=: "pushes" or "moves" when the solution is proven optimal, else None.
    optimal: Option<&'static str>,
    /// With optimal=, when not proven: what every solution needs at least, in pushes or moves.
    lower_bound: Option<u32>,
    /// Threads the solve ran on.
    threads: usize,
    /// The search that ran.
    strategy: String,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        match (&self.moves, &self.pushes) {
            (Some(m), Some(p)) => format!(
                "<bisolve.Result solved: {m} moves, {p} pushes, {:.3} s{}>",
                self.seconds,
                match self.optimal {
                    Some("pushes") => ", push-optimal",
                    Some(_) => ", move-optimal",
                    None => "",
                }
            ),
            _ => format!("<bisolve.Result {} after {:.3} s>", self.status, self.seconds),
        }
    }

    fn __bool__(&self) -> bool {
        self.solved
    }
}

/// What to run and within what limits, checked once for a call.
struct Job {
    planned: Planned,
    limits: Limits,
}

impl Job {
    fn new(
        threads: Option<usize>,
        time_limit: Option<f64>,
        memory: Option<usize>,
        optimal: Option<&str>,
        preset: Option<&str>,
        jobs: usize,
    ) -> PyResult<Job> {
        let mut options =
            engine_preset(preset.unwrap_or("default")).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let threads = match threads {
            Some(n) if n > 0 => n,
            _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        match optimal {
            None => {}
            Some(what @ ("pushes" | "moves")) => {
                options.set(&format!("optimal={what}")).map_err(|e| PyValueError::new_err(e.to_string()))?
            }
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "optimal must be None, 'pushes' or 'moves', not {other:?}"
                )))
            }
        }
        let planned = options.plan(threads).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let time = match time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 => {
                Some(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX))
            }
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be a positive number of seconds, not {t}"
                )))
            }
        };
        let memory = match memory {
            None => default_memory() / jobs.max(1),
            Some(m) if m >= MIN_MEMORY => m,
            Some(m) => {
                return Err(PyValueError::new_err(format!(
                    "memory must be at least {MIN_MEMORY} bytes, not {m}"
                )))
            }
        };
        Ok(Job { planned, limits: Limits { time, memory: Some(memory), ..Limits::default() } })
    }

    /// Solves one level, replaying any solution on it once more before it is returned.
    fn run(&self, level: &BoardLevel, cancel: &AtomicBool) -> Result<SolveResult, String> {
        let report = self.planned.plan.solve(level, &self.limits, cancel).map_err(|e| e.to_string())?;
        result_of(level, &report)
    }
}

fn result_of(level: &BoardLevel, report: &Report) -> Result<SolveResult, String> {
    let solution = match &report.outcome {
        Outcome::Solved(sol) => {
            let steps = parse_lurd(&sol.lurd)
                .map_err(|e| format!("internal error: bad LURD from the engine: {e}"))?;
            let counts = replay_steps(level.board(), level.start(), &steps)
                .map_err(|e| format!("internal error: the solution found does not replay: {e}"))?;
            if (counts.moves, counts.pushes) != (sol.moves, sol.pushes) {
                return Err("internal error: the solution's move counts do not match its replay".into());
            }
            Some((sol, counts))
        }
        _ => None,
    };
    Ok(SolveResult {
        solved: solution.is_some(),
        status: report.outcome.status(),
        solution: solution.map(|(s, _)| s.lurd.clone()),
        moves: solution.map(|(s, _)| s.moves),
        pushes: solution.map(|(s, _)| s.pushes),
        box_lines: solution.map(|(_, c)| c.box_lines),
        box_changes: solution.map(|(_, c)| c.box_changes),
        seconds: report.elapsed.as_secs_f64(),
        states: report.stats.generated(),
        optimal: report.optimality.filter(|o| o.proven && solution.is_some()).map(|o| o.objective.name()),
        lower_bound: report.optimality.filter(|o| !o.proven).map(|o| o.lower_bound),
        threads: report.threads,
        strategy: report.strategy.clone(),
    })
}

/// Runs `work` with the GIL released while this thread waits, checking for signals (Ctrl-C)
/// every few milliseconds and calling `tick` with the GIL held. A signal sets `cancel`, waits
/// for `work` to stop, and is raised.
fn wait_for<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()> + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|s| {
            let handle = s.spawn(work);
            let mut raised: Option<PyErr> = None;
            while !handle.is_finished() {
                std::thread::sleep(POLL);
                if raised.is_some() {
                    continue;
                }
                let checked = Python::attach(|py| py.check_signals().and_then(|()| tick(py)));
                if let Err(e) = checked {
                    cancel.store(true, Ordering::Relaxed);
                    raised = Some(e);
                }
            }
            let value =
                handle.join().map_err(|_| PyRuntimeError::new_err("internal error: a solve panicked"))?;
            match raised {
                Some(e) => Err(e),
                None => Python::attach(tick).map(|()| value),
            }
        })
    })
}

/// Solves one level (or XSB text holding one).
///
/// threads: worker threads (None or 0: every core; 1 is deterministic). time_limit: seconds,
/// None for no limit. memory: bytes the search may hold (None: 60% of the machine's memory).
/// optimal: None, "pushes" (the fewest pushes, then moves) or "moves" (the fewest moves, then
/// pushes): a search that proves it, on every thread; a cut-off one gives its lower bound.
/// preset: a named set of search options (None: "default").
///
/// Returns a Result whose status says how it ended; a cut-off solve is not an error. Raises
/// ValueError for a bad level or argument, KeyboardInterrupt on Ctrl-C (the solve stops first).
#[pyfunction]
#[pyo3(signature = (level, *, threads=None, time_limit=None, memory=None, optimal=None, preset=None))]
fn solve(
    py: Python<'_>,
    level: &Bound<'_, PyAny>,
    threads: Option<usize>,
    time_limit: Option<f64>,
    memory: Option<usize>,
    optimal: Option<&str>,
    preset: Option<&str>,
) -> PyResult<SolveResult> {
    let level = one_level(level)?;
    let job = Job::new(threads, time_limit, memory, optimal, preset, 1)?;
    let cancel = AtomicBool::new(false);
    let result = wait_for(py, &cancel, || job.run(&level.inner, &cancel), |_| Ok(()))?;
    result.map_err(PyRuntimeError::new_err)
}

/// A Level, or text that holds exactly one.
fn one_level(obj: &Bound<'_, PyAny>) -> PyResult<Level> {
    if let Ok(level) = obj.extract::<Level>() {
        return Ok(level);
    }
    let text: String = obj
        .extract()
        .map_err(|_| PyValueError::new_err("expected a bisolve.Level or the XSB text of one level"))?;
    let mut levels = parse_text(&text)?;
    if levels.len() != 1 {
        return Err(PyValueError::new_err(format!("expected one level, the text holds {}", levels.len())));
    }
    Ok(levels.remove(0))
}

/// Solves many levels in parallel inside this process and returns their results in the input
/// order. `jobs` levels run at once (None: every core), each on `threads_per_level` threads.
/// The other arguments are as for `solve`, per level. `progress`, when given, is called with the
/// number of levels done whenever it grows (the `bisolve.solve_many` wrapper turns
/// `progress=True` into a tqdm bar).
#[pyfunction]
#[pyo3(signature = (levels, *, jobs=None, threads_per_level=1, time_limit=None, memory=None, optimal=None, preset=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    levels: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    threads_per_level: usize,
    time_limit: Option<f64>,
    memory: Option<usize>,
    optimal: Option<&str>,
    preset: Option<&str>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<SolveResult>> {
    let levels: Vec<Level> = levels.try_iter()?.map(|item| one_level(&item?)).collect::<PyResult<_>>()?;
    let jobs = match jobs {
        Some(j) if j > 0 => j,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
    .min(levels.len().max(1));
    let job = Job::new(Some(threads_per_level.max(1)), time_limit, memory, optimal, preset, jobs)?;
    let cancel = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<SolveResult, String>>>> =
        levels.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(|| {
                    while !cancel.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(level) = levels.get(i) else { break };
                        let result = job.run(&level.inner, &cancel);
                        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
    };
    let mut shown = 0;
    let tick = |py: Python<'_>| -> PyResult<()> {
        let now = done.load(Ordering::Relaxed);
        if let Some(callback) = &progress {
            if now != shown {
                shown = now;
                callback.call1(py, (now,))?;
            }
        }
        Ok(())
    };
    wait_for(py, &cancel, work, tick)?;
    slots
        .into_iter()
        .map(|slot| match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(result) => result.map_err(PyRuntimeError::new_err),
            None => Err(PyKeyboardInterrupt::new_err("cancelled before this level ran")),
        })
        .collect()
}

/// True when the LURD moves solve the level (case and run-length counts as bisolve writes
/// them; white space ignored). False for moves that cannot be made, letters that are not
/// moves, or moves that leave a box off its goal.
#[pyfunction]
fn verify(level: &Bound<'_, PyAny>, lurd: &str) -> PyResult<bool> {
    let level = one_level(level)?;
    let Ok(steps) = parse_lurd(lurd) else {
        return Ok(false);
    };
    Ok(replay_steps(level.inner.board(), level.inner.start(), &steps).is_ok())
}

/// The positions along a sequence of LURD moves, as Levels: the start, then the position after
/// each move (or, with pushes_only=True, after each push). The moves need not solve the level.
/// Raises ValueError naming the first move that cannot be made.
#[pyfunction]
#[pyo3(signature = (level, lurd, *, pushes_only=false))]
fn replay(level: &Bound<'_, PyAny>, lurd: &str, pushes_only: bool) -> PyResult<Vec<Level>> {
    let level = one_level(level)?;
    let steps = parse_lurd(lurd).map_err(|e| PyValueError::new_err(format!("bad moves: {e}")))?;
    let mut grid: Vec<Vec<char>> = level.inner.rows().iter().map(|r| r.chars().collect()).collect();
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    for row in &mut grid {
        row.resize(width, ' ');
    }
    let mut player = grid
        .iter()
        .enumerate()
        .find_map(|(y, row)| row.iter().position(|&c| c == '@' || c == '+').map(|x| (x, y)))
        .ok_or_else(|| PyRuntimeError::new_err("internal error: a level without a player"))?;
    let title = level.inner.title().map(str::to_string);
    let position = |grid: &[Vec<char>]| -> PyResult<Level> {
        let mut text = title.as_ref().map_or(String::new(), |t| format!("; {t}\n"));
        for row in grid {
            let row: String = row.iter().collect();
            text.push_str(row.trim_end());
            text.push('\n');
        }
        Ok(parse_text(&text)?.remove(0))
    };
    let mut positions = vec![level.clone()];
    for (i, step) in steps.iter().enumerate() {
        let (dx, dy): (isize, isize) = match step.dir.lurd(false) {
            'l' => (-1, 0),
            'r' => (1, 0),
            'u' => (0, -1),
            _ => (0, 1),
        };
        let at = |(x, y): (usize, usize)| -> Option<(usize, usize)> {
            let (nx, ny) = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
            (ny < grid.len() && nx < width).then_some((nx, ny))
        };
        let bad = |why: &str| {
            PyValueError::new_err(format!("move {} ({}): {why}", i + 1, step.dir.lurd(step.push)))
        };
        let next = at(player).ok_or_else(|| bad("off the board"))?;
        let ch = grid[next.1][next.0];
        let pushes = matches!(ch, '$' | '*');
        if ch == '#' {
            return Err(bad("into a wall"));
        }
        if step.push && !pushes {
            return Err(bad("a push with no box ahead"));
        }
        if pushes {
            let beyond = at(next).ok_or_else(|| bad("pushes a box off the board"))?;
            let to = grid[beyond.1][beyond.0];
            if matches!(to, '#' | '$' | '*') {
                return Err(bad("pushes a box into a wall or another box"));
            }
            grid[beyond.1][beyond.0] = if to == '.' { '*' } else { '$' };
        }
        grid[player.1][player.0] = if grid[player.1][player.0] == '+' { '.' } else { ' ' };
        grid[next.1][next.0] = if matches!(ch, '.' | '*') { '+' } else { '@' };
        player = next;
        if pushes || !pushes_only {
            positions.push(position(&grid)?);
        }
    }
    Ok(positions)
}

/// The solver's engine for Python: see the `bisolve` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Level>()?;
    m.add_class::<SolveResult>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
