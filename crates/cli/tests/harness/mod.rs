//! Running the built `bisolve` binary: with a deadline (a hung process fails the test instead
//! of hanging it), capturing its output, and checking that it never panicked.

#![allow(dead_code)] // Each test file uses its own share of these helpers.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long any one run may take before the test calls it hung. Generous: the tests run on
/// loaded two-core machines.
pub const HUNG: Duration = Duration::from_secs(120);

/// What a run of the binary gave.
#[derive(Debug)]
pub struct Run {
    /// The exit status; `None` if a signal ended it.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

impl Run {
    /// Fails unless the exit status is `code`, printing everything the run wrote.
    pub fn expect_code(&self, code: i32) -> &Run {
        assert_eq!(self.code, Some(code), "exit status\n{self}");
        self
    }

    /// The lines of standard output parsed as JSON records.
    pub fn records(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}\n{self}")))
            .collect()
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit status {:?} after {:?}\n--- stdout\n{}--- stderr\n{}---",
            self.code, self.wall, self.stdout, self.stderr
        )
    }
}

/// The binary under test.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bisolve"));
    cmd.env_remove("RUST_BACKTRACE").env("NO_COLOR", "1");
    cmd
}

/// Runs `bisolve ARGS` from the repository root and checks that it did not panic.
pub fn bisolve(args: &[&str]) -> Run {
    let mut cmd = bin();
    cmd.args(args).current_dir(repo());
    run(cmd)
}

/// Runs a command to its end (or fails the test after [`HUNG`]) and checks it did not panic.
pub fn run(mut cmd: Command) -> Run {
    let started = Instant::now();
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    finish(child, started)
}

/// Reads a started child's output and waits for it (or kills it and fails after [`HUNG`]).
pub fn finish(mut child: Child, started: Instant) -> Run {
    let out = child.stdout.take().map(reader);
    let err = child.stderr.take().map(reader);
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait for bisolve") {
            break status.code();
        }
        if started.elapsed() > HUNG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bisolve hung: still running after {HUNG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall = started.elapsed();
    let text =
        |h: Option<std::thread::JoinHandle<String>>| h.map(|h| h.join().expect("reader")).unwrap_or_default();
    let run = Run { code, stdout: text(out), stderr: text(err), wall };
    assert_no_panic(&run);
    run
}

fn reader(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// No panic message, and an exit status that is one of the documented ones (a panic exits
/// with 101).
pub fn assert_no_panic(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "bisolve panicked\n{run}");
    assert!(!run.stderr.contains("RUST_BACKTRACE"), "bisolve panicked\n{run}");
    assert!(
        matches!(run.code, Some(0 | 1 | 2 | 130)),
        "exit status {:?} is not one of 0, 1, 2, 130\n{run}",
        run.code
    );
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Writes `bytes` to a fresh file named `name` (folders allowed) in this test binary's scratch
/// directory and returns its path.
pub fn temp_file(name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("scratch directory");
    }
    std::fs::write(&path, bytes).expect("write scratch file");
    path
}

/// The path as a `&str` for an argument list.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Twenty boxes to pack into a goal room through one door. The searches the tests run on it
/// (A* with no lower bound, i.e. breadth-first by pushes) cannot finish: every solution needs
/// well over a hundred pushes.
pub const HARD_LEVEL: &str = "\
; Goal room
##########################
#@                       #
#  $ $ $ $ $ $ $ $ $ $   #
#    #       #      #    #
#  $ $ $ $ $ $ $ $ $ $   #
#                        #
############ ############
       #           #
       #.....  ....#
       #...........#
       #############
";

/// Arguments that make any search of [`HARD_LEVEL`] run until stopped.
pub const NEVER_FINISHES: [&str; 6] =
    ["--strategy", "astar", "--set", "push.bound=zero", "--set", "pull.bound=zero"];

/// A one-push level, solved at once.
pub const EASY_LEVEL: &str = "; Easy\n#####\n#@$.#\n#####\n";
