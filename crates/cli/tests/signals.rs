//! Ctrl-C (SIGINT) stops a running solve promptly: what was found is printed (the level being
//! solved gets a `cancelled` record), no later level is started, and the exit status is 130.
#![cfg(unix)]

mod harness;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use harness::{arg, bin, finish, temp_file, EASY_LEVEL, HARD_LEVEL, NEVER_FINISHES};

/// How long after SIGINT the process may take to exit. The contract is 200 ms; this is the
/// margin for a loaded machine.
const MARGIN: Duration = Duration::from_secs(5);

/// A run interrupted by SIGINT: its exit, everything it printed, and how long it took to exit
/// after the signal.
struct Interrupted {
    run: harness::Run,
    after_signal: Duration,
}

/// Starts `bisolve FILE ARGS` on an easy level followed by the hard one and another easy one,
/// waits for the first level's output line (the solver is then running and its handler
/// installed), lets it search the hard level for a moment, and sends SIGINT.
fn interrupt(name: &str, args: &[&str]) -> Interrupted {
    let path = temp_file(name, format!("{EASY_LEVEL}\n{HARD_LEVEL}\n{EASY_LEVEL}"));
    let mut cmd = bin();
    cmd.arg(arg(&path)).args(args).args(NEVER_FINISHES).args(["--time-limit", "600"]);
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start bisolve");
    // Pass stdout on line by line, so the first line can be awaited.
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    let lines = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    if rx.recv_timeout(harness::HUNG).is_err() {
        let _ = child.kill();
        panic!("no output from bisolve on the first level");
    }
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("run kill");
    assert!(status.success(), "kill -INT failed");
    let mut run = finish(child, started);
    let after_signal = signalled.elapsed() - (started.elapsed() - run.wall);
    run.stdout = lines.join().expect("stdout reader");
    Interrupted { run, after_signal }
}

#[test]
fn sigint_stops_the_search_prints_the_record_and_exits_130() {
    for threads in ["1", "2"] {
        let Interrupted { run, after_signal } =
            interrupt(&format!("sigint-{threads}.xsb"), &["--json", "--threads", threads]);
        run.expect_code(130);
        assert!(after_signal <= MARGIN, "exited {after_signal:?} after SIGINT\n{run}");
        let records = run.records();
        let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap_or_default()).collect();
        // The easy level was solved, the hard one cancelled, the last never started.
        assert_eq!(statuses, ["solved", "cancelled"], "{threads} threads\n{run}");
        let cancelled = &records[1];
        assert_eq!(cancelled["index"], 2);
        for field in ["states", "expanded", "visited"] {
            assert!(cancelled[field].as_u64().is_some_and(|n| n > 0), "{field}\n{run}");
        }
        assert!(run.stderr.is_empty(), "{run}");
    }
}

#[test]
fn sigint_in_text_mode_prints_the_cancelled_level_and_the_summary() {
    let Interrupted { run, after_signal } = interrupt("sigint-text.xsb", &[]);
    run.expect_code(130);
    assert!(after_signal <= MARGIN, "exited {after_signal:?} after SIGINT\n{run}");
    assert!(run.stdout.contains("level 1 (\"Easy\"): solved"), "{run}");
    assert!(run.stdout.contains("level 2 (\"Goal room\"): cancelled, "), "{run}");
    assert!(!run.stdout.contains("level 3"), "{run}");
    assert!(run.stdout.contains("solved 1 of 3 levels"), "{run}");
}

#[test]
fn sigint_stops_bench() {
    let path = temp_file("sigint-bench.xsb", format!("{EASY_LEVEL}\n{HARD_LEVEL}\n{EASY_LEVEL}"));
    let json = temp_file("sigint-bench.json", "");
    let mut cmd = bin();
    cmd.args(["bench", arg(&path), "--time-limit", "600", "--json", arg(&json)]).args(NEVER_FINISHES);
    let started = Instant::now();
    let child =
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start");
    let pid = child.id().to_string();
    let killer = std::thread::spawn(move || {
        // The first level's record in the JSON file says the bench is on the hard level.
        while std::fs::read_to_string(&json).map_or(true, |t| t.lines().count() == 0) {
            assert!(started.elapsed() < harness::HUNG, "no record from bench");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        (Command::new("kill").args(["-INT", &pid]).status().expect("run kill"), Instant::now())
    });
    let run = finish(child, started);
    let (status, signalled) = killer.join().expect("killer");
    assert!(status.success(), "kill -INT failed\n{run}");
    run.expect_code(130);
    assert!(started + run.wall <= signalled + MARGIN, "bench took long to stop\n{run}");
}
