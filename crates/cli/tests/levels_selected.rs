//! `--level` with indexes, titles, ranges and lists, for the solve command and `bench`.

mod harness;

use harness::bisolve;

/// The indexes of the records a run printed, in order.
fn indexes(args: &[&str]) -> Vec<u64> {
    let run = bisolve(args);
    run.expect_code(0);
    run.records().iter().map(|r| r["index"].as_u64().expect("an index")).collect()
}

#[test]
fn ranges_and_lists_pick_levels_in_the_order_named_each_once() {
    let solve = |level: &str| indexes(&["levels/demo.xsb", "--json", "--level", level]);
    assert_eq!(solve("3"), [3]);
    assert_eq!(solve("2-4"), [2, 3, 4]);
    assert_eq!(solve("1,4,7-9"), [1, 4, 7, 8, 9]);
    assert_eq!(solve("9-10, 2, 9"), [9, 10, 2], "in the order named, each once");
    assert_eq!(solve("Warehouse"), [10], "a title");
    assert_eq!(solve("1,Warehouse"), [1, 10], "a title in a list");
}

#[test]
fn bench_takes_the_same_selection() {
    let out = harness::temp_file("bench-selected.json", "");
    let run = bisolve(&["bench", "levels/demo.xsb", "--level", "2-3,6", "--json", harness::arg(&out)]);
    run.expect_code(0);
    let text = std::fs::read_to_string(&out).expect("the bench records");
    let records: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let mut levels: Vec<u64> = records.iter().filter_map(|r| r["index"].as_u64()).collect();
    levels.sort_unstable();
    assert_eq!(levels, [2, 3, 6]);
    let summary = records.iter().find(|r| r["summary"] == true).expect("a summary");
    assert_eq!(summary["levels"], 3);
}

#[test]
fn shards_split_a_run_between_processes() {
    let shard = |s: &str| indexes(&["levels/demo.xsb", "--json", "--shard", s]);
    assert_eq!(shard("1/3"), [1, 4, 7, 10]);
    assert_eq!(shard("2/3"), [2, 5, 8]);
    assert_eq!(shard("3/3"), [3, 6, 9]);
    // The shard counts the levels chosen, after --level.
    assert_eq!(indexes(&["levels/demo.xsb", "--json", "--level", "2-7", "--shard", "2/2"]), [3, 5, 7]);
    // A shard with no level does nothing, and says so.
    let run = bisolve(&["levels/demo.xsb", "--level", "1", "--shard", "2/2"]);
    run.expect_code(0);
    assert!(run.stderr.contains("shard 2/2 holds no level"), "{run}");
    let bad = bisolve(&["levels/demo.xsb", "--shard", "4/3"]);
    bad.expect_code(2);
    assert!(bad.stderr.contains("expected I/N with 1 <= I <= N"), "{bad}");
}

#[test]
fn several_files_and_directories_are_solved_in_turn() {
    let dir = harness::temp_file("several/b.xsb", "; B\n#####\n#@$.#\n#####\n");
    harness::temp_file("several/a.sok", "Title: A\n######\n#@$ .#\n######\n");
    harness::temp_file("several/notes.md", "not a level file");
    let dir = dir.parent().expect("a directory").to_path_buf();
    let run = bisolve(&["levels/demo.xsb", harness::arg(&dir), "--json", "--level", "1"]);
    run.expect_code(0);
    let files: Vec<String> =
        run.records().iter().map(|r| r["file"].as_str().expect("a file").replace('\\', "/")).collect();
    assert_eq!(files.len(), 3, "{run}");
    assert_eq!(files[0], "levels/demo.xsb");
    assert!(files[1].ends_with("several/a.sok") && files[2].ends_with("several/b.xsb"), "{files:?}");
    let empty = harness::temp_file("empty-dir/notes.md", "nothing");
    let run = bisolve(&[harness::arg(empty.parent().expect("a directory"))]);
    run.expect_code(2);
    assert!(run.stderr.contains("a directory with no .xsb, .sok or .txt file"), "{run}");
}
