//! A reader that goes away (`bisolve FILE | head -1`) ends the program quietly: no panic, no
//! "Broken pipe" message, exit status 0.

mod harness;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use harness::{arg, bin, finish, temp_file, EASY_LEVEL};

/// A collection of `n` one-push levels: its output is far larger than a pipe's buffer, so the
/// program is still writing when the reader leaves.
fn many_levels(name: &str, n: usize) -> std::path::PathBuf {
    temp_file(name, format!("{EASY_LEVEL}\n").repeat(n))
}

/// Runs `bisolve ARGS`, reads one line of its output and closes the pipe.
fn read_one_line(args: &[&str]) -> (String, harness::Run) {
    let started = Instant::now();
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let mut first = String::new();
    {
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        stdout.read_line(&mut first).expect("read a line");
        // Dropping the reader closes the pipe.
    }
    (first, finish(child, started))
}

#[test]
fn closed_stdout_ends_quietly() {
    let path = many_levels("pipe.xsb", 3000);
    for extra in [&[][..], &["--json"], &["--quiet"]] {
        let mut args = vec![arg(&path)];
        args.extend_from_slice(extra);
        let (first, run) = read_one_line(&args);
        assert!(first.contains("level 1") || first.contains("\"index\":1,"), "{extra:?}: {first}");
        run.expect_code(0);
        assert!(run.stderr.is_empty(), "{extra:?}: messages after the pipe closed\n{run}");
    }
}

#[test]
fn closed_stdout_ends_show_quietly() {
    let path = many_levels("pipe-show.xsb", 3000);
    for args in [vec!["show", arg(&path)], vec!["show", arg(&path), "--dead", "--reach"]] {
        let (first, run) = read_one_line(&args);
        assert!(first.starts_with("; level 1"), "{first}");
        run.expect_code(0);
        assert!(run.stderr.is_empty(), "{run}");
    }
}

/// The same through a shell pipeline, as users write it.
#[test]
fn pipe_into_head() {
    let path = many_levels("pipe-head.xsb", 3000);
    let script = format!("'{}' '{}' --json | head -1", env!("CARGO_BIN_EXE_bisolve"), arg(&path));
    let output = Command::new("sh").args(["-c", &script]).output().expect("run sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("\"status\":\"solved\""), "{stdout}");
    assert!(stderr.is_empty(), "{stderr}");
}
