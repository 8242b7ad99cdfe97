//! The inputs kept from fuzzing (`fuzz/regressions/`), run through the binary on stable: each
//! gives results or an error with a documented exit status, never a panic or a hang. See
//! `fuzz/README.md` for the targets and how the inputs are laid out.

mod harness;

use std::path::{Path, PathBuf};

use harness::{arg, bisolve, temp_file};

/// The strategies of the `solve` target, picked by an input's first byte.
const STRATEGIES: [&str; 6] = ["bidirectional", "forward", "backward", "astar", "greedy", "wastar"];

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = harness::repo().join("fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap_or_default().to_string_lossy().into_owned()
}

#[test]
fn parse_inputs_load_solve_and_show() {
    for path in inputs("parse") {
        let run = bisolve(&[arg(&path), "--json", "--states", "20000", "--time-limit", "10"]);
        assert!(matches!(run.code, Some(0..=2)), "{}\n{run}", name(&path));
        let show = bisolve(&["show", arg(&path), "--dead", "--pull-dead", "--reach", "--plan"]);
        assert!(matches!(show.code, Some(0..=2)), "show {}\n{show}", name(&path));
    }
}

#[test]
fn verify_inputs_replay() {
    for path in inputs("verify") {
        let bytes = std::fs::read(&path).expect("read input");
        let Some(nul) = bytes.iter().position(|&b| b == 0) else {
            continue;
        };
        let level = temp_file(&format!("verify-{}.xsb", name(&path)), &bytes[..nul]);
        let solution = temp_file(&format!("verify-{}.lurd", name(&path)), &bytes[nul + 1..]);
        let run = bisolve(&["verify", arg(&level), "--level", "1", arg(&solution)]);
        assert!(matches!(run.code, Some(0..=2)), "{}\n{run}", name(&path));
    }
}

#[test]
fn solve_inputs_solve_under_the_strategy_they_name() {
    for path in inputs("solve") {
        let bytes = std::fs::read(&path).expect("read input");
        let Some((&pick, file)) = bytes.split_first() else {
            continue;
        };
        let level = temp_file(&format!("solve-{}.xsb", name(&path)), file);
        let strategy = STRATEGIES[pick as usize % STRATEGIES.len()];
        let run = bisolve(&[
            arg(&level),
            "--json",
            "--strategy",
            strategy,
            "--states",
            "50000",
            "--time-limit",
            "10",
        ]);
        assert!(matches!(run.code, Some(0..=2)), "{}\n{run}", name(&path));
    }
}
