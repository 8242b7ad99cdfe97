//! `bisolve options`, `--options FILE`, `--preset` and `--set`: the options as data, read back
//! as written, applied to the search, and carried in the JSON records.

mod harness;

use harness::{bisolve, temp_file};

/// The dotted keys of the TOML `bisolve options` prints, with their values.
fn keys_and_values(toml: &str) -> Vec<(String, String)> {
    let mut table = String::new();
    let mut out = Vec::new();
    for line in toml.lines().filter(|l| !l.starts_with('#')) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_string();
        } else if let Some((key, value)) = line.split_once(" = ") {
            let key = if table.is_empty() { key.to_string() } else { format!("{table}.{key}") };
            out.push((key, value.to_string()));
        }
    }
    out
}

#[test]
fn the_options_printed_read_back_the_same() {
    let first = bisolve(&["options"]);
    first.expect_code(0);
    assert!(first.stdout.contains("\n[push]\n") && first.stdout.contains("\nfreeze = true\n"), "{first}");
    let path = temp_file("options-round-trip.toml", &first.stdout);
    let second = bisolve(&["options", "--options", harness::arg(&path)]);
    second.expect_code(0);
    assert_eq!(second.stdout, first.stdout);
}

#[test]
fn set_and_a_file_change_what_is_printed_in_order() {
    let path = temp_file("options-file.toml", "forward_weight = 1\n[push]\nfreeze = false\njams = false\n");
    let run = bisolve(&["options", "--options", harness::arg(&path), "--set", "push.jams=true"]);
    run.expect_code(0);
    let values = keys_and_values(&run.stdout);
    let value = |key: &str| values.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    assert_eq!(value("forward_weight"), Some("1"));
    assert_eq!(value("push.freeze"), Some("false"));
    assert_eq!(value("push.jams"), Some("true"), "--set comes after the file");
    assert_eq!(value("strategy"), Some("\"portfolio\""), "keys the file lacks keep the preset's");
}

#[test]
fn members_that_differ_leave_their_switches_unset() {
    let run = bisolve(&["options", "--set", "members=bi-fess,bwd-fess-confined"]);
    run.expect_code(0);
    let unset = run.stdout.split("# Unset").nth(1).unwrap_or_else(|| panic!("no unset keys\n{run}"));
    assert!(unset.contains("#   pull.confinement\n"), "{run}");
    assert!(!keys_and_values(&run.stdout).iter().any(|(k, _)| k == "pull.confinement"), "{run}");
}

#[test]
fn every_key_is_in_the_reference_page() {
    let run = bisolve(&["options"]);
    run.expect_code(0);
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/options.md"),
    )
    .expect("docs/options.md");
    let keys = keys_and_values(&run.stdout);
    assert!(keys.len() > 40, "{run}");
    for (key, _) in keys {
        assert!(page.contains(&format!("`{key}`")), "docs/options.md does not name `{key}`");
    }
}

/// The same switch given by a file and by `--set` makes the same one-thread search, and not
/// the default's.
#[test]
fn a_file_and_set_run_the_same_search() {
    let level = ["levels/demo.xsb", "--level", "4", "--json", "--threads", "1"];
    let states = |extra: &[&str]| -> u64 {
        let run = bisolve(&[&level[..], extra].concat());
        run.expect_code(0);
        run.records()[0]["states"].as_u64().expect("states")
    };
    let path = temp_file("options-no-corrals.toml", "[push]\ncorrals = false\n");
    let by_file = states(&["--options", harness::arg(&path)]);
    assert_eq!(by_file, states(&["--set", "push.corrals=false"]));
    assert_ne!(by_file, states(&[]), "the switch changes the search on this level");
}

#[test]
fn the_record_carries_the_options_as_they_ran() {
    // The default runs no restarts; `auto` runs them on 2 threads, and the record says so.
    for (threads, set, mode) in [
        ("1", "restarts.mode=auto", "off"),
        ("2", "restarts.mode=auto", "on"),
        ("2", "restarts.mode=off", "off"),
    ] {
        let run = bisolve(&[
            "levels/demo.xsb",
            "--level",
            "1",
            "--json",
            "--stats",
            "--threads",
            threads,
            "--set",
            set,
        ]);
        run.expect_code(0);
        let options = &run.records()[0]["options"];
        assert_eq!(options["restarts"]["mode"], mode, "{threads} threads\n{run}");
        assert_eq!(options["push"]["freeze"], true, "{run}");
        assert_eq!(options["members"][0], "bi-fess", "{run}");
    }
}

#[test]
fn a_record_is_lean_unless_stats_are_asked_for() {
    let lean = bisolve(&["levels/demo.xsb", "--level", "3", "--json", "--threads", "1"]);
    lean.expect_code(0);
    let r = &lean.records()[0];
    assert_eq!(r["status"], "solved", "{lean}");
    assert!(r.get("options").is_none(), "{lean}");
    assert!(r["forward"]["expanded"].as_u64().is_some(), "{lean}");
    assert!(r["forward"].get("pruned").is_none(), "{lean}");
    let full = bisolve(&["levels/demo.xsb", "--level", "3", "--json", "--stats", "--threads", "1"]);
    full.expect_code(0);
    let f = &full.records()[0];
    assert!(f["forward"]["pruned"]["dead squares"].as_u64().is_some(), "{full}");
    assert_eq!(f["options"]["push"]["freeze"], true, "{full}");
    // Everything else is the same record: one thread repeats itself.
    for key in ["status", "solution", "moves", "pushes", "states", "expanded"] {
        assert_eq!(r[key], f[key], "{key}");
    }
    // The counters make sense only in a record.
    bisolve(&["levels/demo.xsb", "--stats"]).expect_code(2);
}

#[test]
fn a_thread_count_that_drops_the_restarts_says_so() {
    // The default members have seven searches: with `auto`, more threads drop the schedule.
    let auto = ["--set", "restarts.mode=auto"];
    let run = bisolve(&[&["levels/demo.xsb", "--level", "1", "--threads", "9"][..], &auto].concat());
    run.expect_code(0);
    assert!(run.stderr.contains("bisolve: note: no restarts"), "{run}");
    let quiet =
        bisolve(&[&["levels/demo.xsb", "--level", "1", "--threads", "9", "--quiet"][..], &auto].concat());
    quiet.expect_code(0);
    assert!(quiet.stderr.is_empty(), "{quiet}");
    let two = bisolve(&[&["levels/demo.xsb", "--level", "1", "--threads", "2"][..], &auto].concat());
    assert!(two.stderr.is_empty(), "{two}");
    // The default runs no schedule, so it has none to drop.
    let default = bisolve(&["levels/demo.xsb", "--level", "1", "--threads", "9"]);
    default.expect_code(0);
    assert!(!default.stderr.contains("note: no restarts"), "{default}");
}

#[test]
fn threads_default_to_every_core_and_zero_means_the_same() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    for args in [&[][..], &["--threads", "0"][..]] {
        let mut all = vec!["levels/demo.xsb", "--level", "1", "--json"];
        all.extend_from_slice(args);
        let run = bisolve(&all);
        run.expect_code(0);
        assert_eq!(run.records()[0]["threads"], cores, "{args:?}\n{run}");
    }
    // Every core, by default, says nothing of the restarts it runs without; asked for, it does.
    let quiet_default = bisolve(&["levels/demo.xsb", "--level", "1"]);
    quiet_default.expect_code(0);
    assert!(!quiet_default.stderr.contains("note: no restarts"), "{quiet_default}");
}
