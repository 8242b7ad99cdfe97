//! Golden effort counters: the default search on one thread (deterministic) over a fixed set of
//! levels, with the moves, pushes, states and expansions each level took, checked against
//! `tests/golden/effort.tsv`. A change that moves the search shows as a diff of that file.
//! `BISOLVE_BLESS=1 cargo test -p bisolve --test golden` (`just golden`) writes the new
//! counts; commit them with the change, so that the diff says what the change did.
//!
//! The sets: the repository's demo levels, and when `../shared` is there, Microban I and II
//! and the first levels of XSokoban. Without `../shared` only the demo rows are checked.

mod harness;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use harness::{arg, bisolve, repo, temp_file};

/// The golden file, relative to the repository root.
const GOLDEN: &str = "crates/cli/tests/golden/effort.tsv";

/// Every run's limits: far above what any level of the sets takes (the most is about 1.4
/// million states), so a run that hits one has moved a lot and still ends in reasonable time.
/// Where a limit stops a level, the counts depend on when the limit was checked, so for such a
/// row only the status is compared ([`Row::comparable`]).
const STATES: &str = "5000000";
const SECONDS: &str = "60";

/// A set of levels: its name in the golden file, its path, and how many of its first levels
/// (all when `None`).
struct Set {
    name: &'static str,
    path: PathBuf,
    first: Option<usize>,
}

/// The sets whose files are here.
fn sets() -> (Vec<Set>, Vec<&'static str>) {
    let shared = repo().join("../shared/levels");
    let candidates = [
        Set { name: "demo", path: repo().join("levels/demo.xsb"), first: None },
        Set { name: "microban", path: shared.join("microban.xsb"), first: None },
        Set { name: "microban2", path: shared.join("microban2.xsb"), first: None },
        Set { name: "xsokoban", path: shared.join("xsokoban-1-45.xsb"), first: Some(XSOKOBAN_FIRST) },
    ];
    let mut present = Vec::new();
    let mut absent = Vec::new();
    for set in candidates {
        if set.path.is_file() {
            present.push(set);
        } else {
            absent.push(set.name);
        }
    }
    (present, absent)
}

/// The first XSokoban levels in the set (each a second or two on one thread at most).
const XSOKOBAN_FIRST: usize = 9;

/// One level's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    status: String,
    moves: Option<u64>,
    pushes: Option<u64>,
    states: u64,
    expanded: u64,
}

impl Row {
    /// What two runs must agree on: everything for a level solved or proven unsolvable, the
    /// status alone for one a limit stopped.
    fn comparable(&self) -> Row {
        if matches!(self.status.as_str(), "solved" | "unsolvable") {
            self.clone()
        } else {
            Row { status: self.status.clone(), moves: None, pushes: None, states: 0, expanded: 0 }
        }
    }

    /// The counts in words, for the list of differences.
    fn counts(&self) -> String {
        format!(
            "{} ({} moves, {} pushes, {} states, {} expanded)",
            self.status,
            dash(self.moves),
            dash(self.pushes),
            self.states,
            self.expanded
        )
    }

    /// The row as the golden file holds it.
    fn line(&self, key: &(String, usize)) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            key.0,
            key.1,
            self.status,
            dash(self.moves),
            dash(self.pushes),
            self.states,
            self.expanded
        )
    }
}

/// A count, or `-` for none (the moves and pushes of a level not solved).
fn dash(v: Option<u64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

type Rows = BTreeMap<(String, usize), Row>;

/// Runs the default search on one thread over `set` and reads its records.
fn measure(set: &Set) -> Rows {
    let json = temp_file(&format!("golden-{}.json", set.name), "");
    let file = match set.first {
        // `bench` takes whole files: write the first `n` levels to a file of their own.
        Some(n) => {
            let text = std::fs::read_to_string(&set.path).expect("read the set");
            temp_file(&format!("golden-{}.xsb", set.name), first_levels(&text, n))
        }
        None => set.path.clone(),
    };
    let mut args = vec!["bench", arg(&file)];
    args.extend(["--threads", "1", "--jobs", "2", "--states", STATES, "--time-limit", SECONDS]);
    args.extend(["--json", arg(&json)]);
    let run = bisolve(&args);
    // 1 when a level was not solved: a change may do that, and the rows say which.
    assert!(matches!(run.code, Some(0 | 1)), "golden: bench of {} failed\n{run}", set.name);
    let text = std::fs::read_to_string(&json).expect("the records");
    let mut rows = Rows::new();
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        if r["summary"].as_bool() == Some(true) {
            continue;
        }
        let index = r["index"].as_u64().expect("an index") as usize;
        let row = Row {
            status: r["status"].as_str().expect("a status").to_string(),
            moves: r["moves"].as_u64(),
            pushes: r["pushes"].as_u64(),
            states: r["states"].as_u64().expect("states"),
            expanded: r["expanded"].as_u64().expect("expansions"),
        };
        rows.insert((set.name.to_string(), index), row);
    }
    rows
}

/// The first `n` levels of a collection in XSB text (levels are separated by blank lines and
/// comment lines).
fn first_levels(text: &str, n: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut in_level = false;
    for line in text.lines() {
        let is_board = !line.trim().is_empty() && !line.trim_start().starts_with(';') && line.contains('#');
        if is_board && !in_level {
            count += 1;
            if count > n {
                break;
            }
            out.push('\n');
        }
        in_level = is_board;
        if is_board {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The golden rows of the sets named in `names`.
fn read_golden(path: &Path, names: &[&str]) -> Rows {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut rows = Rows::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "{GOLDEN}: bad line {line:?}");
        if !names.contains(&f[0]) {
            continue;
        }
        let num = |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("{GOLDEN}: bad number in {line:?}"));
        let opt = |s: &str| (s != "-").then(|| num(s));
        let key = (f[0].to_string(), num(f[1]) as usize);
        rows.insert(
            key,
            Row {
                status: f[2].to_string(),
                moves: opt(f[3]),
                pushes: opt(f[4]),
                states: num(f[5]),
                expanded: num(f[6]),
            },
        );
    }
    rows
}

/// A summary of how `new` differs from `old`, level by level and in all.
fn differences(old: &Rows, new: &Rows) -> String {
    let mut out = String::new();
    let mut ratios = Vec::new();
    for (key, row) in new {
        match old.get(key) {
            Some(was) if was.comparable() == row.comparable() => {}
            Some(was) => {
                let _ = writeln!(out, "  {} {}: {} -> {}", key.0, key.1, was.counts(), row.counts());
            }
            None => {
                let _ = writeln!(out, "  {} {}: new: {}", key.0, key.1, row.line(key));
            }
        }
        if let Some(was) = old.get(key) {
            if was.status == "solved" && row.status == "solved" && was.states > 0 && row.states > 0 {
                ratios.push((row.states as f64 / was.states as f64).ln());
            }
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(k)) {
        let _ = writeln!(out, "  {} {}: gone", key.0, key.1);
    }
    let solved = |rows: &Rows| rows.values().filter(|r| r.status == "solved").count();
    let _ = writeln!(out, "  solved: {} -> {} of {}", solved(old), solved(new), new.len());
    if !ratios.is_empty() {
        let mean = (ratios.iter().sum::<f64>() / ratios.len() as f64).exp();
        let _ = writeln!(
            out,
            "  states, geometric mean over {} levels solved both times: {mean:.4}x",
            ratios.len()
        );
    }
    out
}

#[test]
fn the_default_search_takes_the_recorded_effort() {
    let (sets, absent) = sets();
    if !absent.is_empty() {
        eprintln!("golden: {} not found (../shared absent?); checking the others", absent.join(", "));
    }
    let mut new = Rows::new();
    for set in &sets {
        new.extend(measure(set));
    }
    let path = repo().join(GOLDEN);
    let names: Vec<&str> = sets.iter().map(|s| s.name).collect();
    if std::env::var_os("BISOLVE_BLESS").is_some() {
        assert!(absent.is_empty(), "golden: bless with every set present ({} missing)", absent.join(", "));
        let old = read_golden(&path, &names);
        let mut text = String::from(
            "# Golden effort counters (crates/cli/tests/golden.rs): `bisolve bench` of each set, one\n\
             # thread, default strategy. Written by BISOLVE_BLESS=1 (`just golden`).\n\
             # set\tlevel\tstatus\tmoves\tpushes\tstates\texpanded\n",
        );
        for (key, row) in &new {
            text.push_str(&row.line(key));
            text.push('\n');
        }
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("the golden folder");
        std::fs::write(&path, text).expect("write the golden file");
        eprintln!("golden: wrote {} rows to {GOLDEN}\n{}", new.len(), differences(&old, &new));
        return;
    }
    let old = read_golden(&path, &names);
    assert!(!old.is_empty(), "golden: {GOLDEN} holds no rows; write it with BISOLVE_BLESS=1 (`just golden`)");
    let same = old.len() == new.len()
        && old.iter().zip(&new).all(|((k, a), (l, b))| k == l && a.comparable() == b.comparable());
    assert!(
        same,
        "golden: the default search's effort differs from {GOLDEN}:\n{}\
         If the change is meant to move the search, write the new counts with BISOLVE_BLESS=1 \
         (`just golden`) and commit them with it.",
        differences(&old, &new)
    );
}

#[test]
fn first_levels_keeps_whole_levels() {
    let text = "; one\n####\n#@$.#\n####\n\n; two\n#####\n#@$.#\n#####\n\n; three\n###\n";
    assert_eq!(first_levels(text, 2), "\n####\n#@$.#\n####\n\n#####\n#@$.#\n#####\n");
    assert_eq!(first_levels(text, 0), "");
}

#[test]
fn a_row_stopped_by_a_limit_compares_by_its_status_alone() {
    let row = |status: &str, states| Row {
        status: status.to_string(),
        moves: None,
        pushes: None,
        states,
        expanded: 7,
    };
    assert_eq!(row("states", 5_000_123).comparable(), row("states", 5_000_999).comparable());
    assert_ne!(row("states", 1).comparable(), row("timeout", 1).comparable());
    assert_ne!(row("unsolvable", 10).comparable(), row("unsolvable", 11).comparable());
}
