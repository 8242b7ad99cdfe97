//! Live progress on standard error: a line redrawn in place under a terminal (checked under a
//! pseudo-terminal made by util-linux's `script`), plain lines with `--progress` elsewhere, and
//! nothing when neither asks for it.
#![cfg(unix)]

mod harness;

use std::process::Command;

use harness::{bin, bisolve, repo, run};

/// A level no search finishes in seconds.
const ENDLESS: &str = "levels/engine/endless.xsb";

/// `--progress` off a terminal prints a plain line every 5 s, naming the level and its
/// figures, and leaves standard output as it was.
#[test]
fn progress_off_a_terminal_is_a_plain_line_every_few_seconds() {
    let run = bisolve(&[ENDLESS, "--threads", "1", "--time-limit", "6", "--progress"]);
    run.expect_code(1);
    let lines: Vec<&str> = run.stderr.lines().filter(|l| l.contains("states visited")).collect();
    assert!(!lines.is_empty(), "{run}");
    let line = lines[0];
    assert!(line.starts_with("bisolve: level 1 (\"Endless\"): 5."), "{run}");
    assert!(line.contains(" MB"), "{run}");
    assert!(line.contains("pushes left forward"), "{run}");
    assert!(!run.stdout.contains("states visited"), "{run}");
    // Without --progress nothing is shown where no one watches.
    let quiet = bisolve(&[ENDLESS, "--threads", "1", "--time-limit", "1"]);
    quiet.expect_code(1);
    assert!(!quiet.stderr.contains("states visited"), "{quiet}");
}

/// Runs `bisolve ARGS` with standard input, output and error on a pseudo-terminal, or `None`
/// where `script` is missing. Its output comes back on standard output, escapes included.
fn under_a_terminal(args: &[&str]) -> Option<harness::Run> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return None;
    }
    let program = bin().get_program().to_string_lossy().into_owned();
    let line = std::iter::once(program.as_str()).chain(args.iter().copied()).map(quote).collect::<Vec<_>>();
    let mut cmd = Command::new("script");
    cmd.args(["-q", "-e", "-c", &line.join(" "), "/dev/null"]).current_dir(repo()).env("NO_COLOR", "1");
    Some(run(cmd))
}

fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// On a terminal the line is redrawn a few times a second and cleared when the level ends;
/// the summary follows it.
#[test]
fn a_terminal_gets_a_line_redrawn_in_place_and_cleared() {
    let Some(run) = under_a_terminal(&[ENDLESS, "--threads", "1", "--time-limit", "2"]) else {
        return;
    };
    run.expect_code(1);
    let shown = run.stdout.matches("states visited").count();
    assert!(shown >= 2, "{shown} redraws\n{run}");
    assert!(run.stdout.contains("level 1 (\"Endless\"): "), "{run}");
    // Cleared (carriage return, erase line) before the summary.
    let cleared = run.stdout.rfind("\r\x1b[2K").expect("the line is cleared");
    let summary = run.stdout.rfind("timeout").expect("a timeout summary");
    assert!(cleared < summary, "{run}");
    // --json and --quiet are for scripts: no line unless --progress asks.
    for quiet in ["--json", "--quiet"] {
        let Some(run) = under_a_terminal(&[ENDLESS, "--threads", "1", "--time-limit", "1", quiet]) else {
            return;
        };
        run.expect_code(1);
        assert!(!run.stdout.contains("states visited"), "{quiet}\n{run}");
    }
    let Some(asked) =
        under_a_terminal(&[ENDLESS, "--threads", "1", "--time-limit", "1", "--json", "--progress"])
    else {
        return;
    };
    asked.expect_code(1);
    assert!(asked.stdout.contains("states visited"), "{asked}");
}
