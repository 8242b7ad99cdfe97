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
