//! Seeing and sharing solutions from the command line: SVG and GIF pictures, SOK files that
//! read back with the same solutions, plain playback frames, and clear errors for bad input.

mod common;

use bisolve_board::moves::{parse_lurd, replay};
use bisolve_board::{load_collection, Collection};
use common::{bisolve, code, repo_file, stderr, stdout, Scratch};

fn demo() -> String {
    repo_file("levels/demo.xsb").to_string_lossy().into_owned()
}

/// The solutions of `--json` output, by level index.
fn json_solutions(out: &str) -> Vec<(usize, String)> {
    out.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            let index = v["index"].as_u64().expect("index") as usize;
            (index, v["solution"].as_str().expect("solved").to_string())
        })
        .collect()
}

fn load(path: &str) -> Collection {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_collection(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn svg_and_gif_have_one_frame_per_move() {
    let dir = Scratch::new("pictures");
    let (svg, gif) = (dir.path("p.svg"), dir.path("p.gif"));
    let o = bisolve(&[&demo(), "--level", "Pinwheel", "--json", "--svg", &svg, "--gif", &gif]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (_, lurd) = json_solutions(&stdout(&o)).pop().expect("one level");
    let frames = lurd.len() + 1;

    let text = std::fs::read_to_string(&svg).expect("SVG written");
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("data-frames"), Some(frames.to_string().as_str()));
    let play = doc.descendants().find(|n| n.attribute("id") == Some("play")).expect("player animation");
    assert_eq!(play.attribute("values").expect("values").split(';').count(), frames);
    for anim in doc.descendants().filter(|n| n.attribute("keyTimes").is_some()) {
        let count = |a: &str| anim.attribute(a).expect(a).split(';').count();
        assert_eq!(count("keyTimes"), count("values"));
    }
    assert!(doc.descendants().any(|n| n.has_tag_name("desc") && n.text() == Some(lurd.as_str())));

    let bytes = std::fs::read(&gif).expect("GIF written");
    let mut decoder = gif::DecodeOptions::new().read_info(bytes.as_slice()).expect("a GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("decodes").is_some() {
        n += 1;
    }
    assert_eq!(n, frames);
}

#[test]
fn pictures_of_several_levels_are_numbered() {
    let dir = Scratch::new("numbered");
    let o = bisolve(&[&demo(), "--level", "1", "--svg", &dir.path("one.svg"), "-q"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(std::path::Path::new(&dir.path("one.svg")).is_file());
    let o = bisolve(&[&demo(), "--svg", &dir.path("d.svg"), "-q"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for i in 1..=10 {
        let text = std::fs::read_to_string(dir.path(&format!("d-{i}.svg"))).expect("numbered SVG");
        roxmltree::Document::parse(&text).expect("well-formed XML");
    }
}

#[test]
fn sok_reads_back_with_the_same_levels_and_solutions() {
    let dir = Scratch::new("sok");
    let original = load(&demo());
    for rle in [false, true] {
        let sok = dir.path(if rle { "rle.sok" } else { "plain.sok" });
        let mut args = vec![demo(), "--json".into(), "--sok".into(), sok.clone()];
        if rle {
            args.push("--rle".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = bisolve(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let solutions = json_solutions(&stdout(&o));
        let written = load(&sok);
        let mut shorter = 0;
        assert_eq!(written.entries.len(), original.entries.len());
        assert_eq!(written.header, original.header);
        for ((entry, before), (index, lurd)) in written.entries.iter().zip(&original.entries).zip(&solutions)
        {
            assert_eq!(entry.index, *index);
            assert_eq!(entry.title, before.title);
            let level = entry.level.as_ref().expect("valid");
            assert_eq!(level.rows(), before.level.as_ref().expect("valid").rows());
            let [section] = level.solutions() else { panic!("level {index}: {:?}", level.solutions()) };
            let steps = parse_lurd(&section.lurd).expect("LURD");
            assert_eq!(steps, parse_lurd(lurd).expect("LURD"), "level {index}");
            let counts = replay(level.board(), level.start(), &steps).expect("solves");
            assert_eq!(section.title, format!("Solution (moves {}, pushes {})", counts.moves, counts.pushes));
            if rle {
                shorter += usize::from(section.lurd.len() < lurd.len());
            } else {
                assert_eq!(&section.lurd, lurd);
            }
        }
        assert!(!rle || shorter > 5, "run-length encoding shortened only {shorter} solutions");
    }
}

#[test]
fn play_writes_sok_and_reads_stored_solutions() {
    let dir = Scratch::new("play-sok");
    let sok = dir.path("side.sok");
    let fixture = repo_file("levels/formats/solutions.sok").to_string_lossy().into_owned();
    // The stored solution is played (and written back, run-length encoded).
    let o = bisolve(&["play", &fixture, "--level", "Side by side", "--sok", &sok, "--rle"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("playing the solution on line 31"), "{}", stderr(&o));
    let c = load(&sok);
    let level = c.entries[0].level.as_ref().expect("valid");
    assert_eq!(level.solutions()[0].lurd, "u3rDu2l2dr2R3lu3R");
}

#[test]
fn plain_playback_prints_every_frame_and_ends_solved() {
    // One thread: both runs find the same solution.
    let o = bisolve(&["play", &demo(), "--level", "8", "--threads", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let frames = load_collection(out.as_bytes()).expect("the frames are a collection");
    let moves: usize = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("; start: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a start line with the move count");
    assert_eq!(frames.entries.len(), moves + 1);
    let last = frames.entries.last().and_then(|e| e.level.as_ref().ok()).expect("a valid last frame");
    assert!(last.start().boxes.iter().all(|&b| last.board().is_goal(b)), "not solved:\n{out}");
    assert!(out
        .trim_end()
        .lines()
        .rev()
        .find(|l| l.starts_with(';'))
        .is_some_and(|l| l.ends_with(": solved")));

    // Every 10th frame, plus the start and the end.
    let o = bisolve(&["play", &demo(), "--level", "8", "--every", "10", "--threads", "1"]);
    let frames = load_collection(stdout(&o).as_bytes()).expect("a collection");
    assert_eq!(frames.entries.len(), moves / 10 + 1 + usize::from(moves % 10 != 0));
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let dir = Scratch::new("bad");
    let demo = demo();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["play", &demo, "--level", "2", "dRx"], "not LURD"),
        (vec!["play", &demo, "--level", "2", "dR"], "not a solution"),
        (vec!["play", &demo, "--level", "2", "L"], "not a solution"),
        (vec!["play", &demo, "--level", "99"], "no level"),
        (vec!["play", &demo], "holds 10 levels"),
        (vec!["play", &demo, "--level", "2", "--speed", "0"], "--speed"),
        (vec![&demo, "--level", "2", "--svg", "/nonexistent-dir/x.svg"], "cannot write"),
        (vec![&demo, "--level", "2", "--gif", "/nonexistent-dir/x.gif"], "cannot write"),
        (vec![&demo, "--level", "2", "--sok", "/nonexistent-dir/x.sok"], "cannot write"),
        (vec!["show", &demo, "--level", "2", "--svg", "/nonexistent-dir/x.svg"], "cannot write"),
    ];
    let scratch = dir.path("");
    let mut cases = cases;
    cases.push((vec!["show", &demo, "--level", "2", "--svg", &scratch], "is a directory"));
    for (args, message) in &cases {
        let o = bisolve(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn show_draws_the_parking_plan() {
    // A room whose two inner goals are reached only past its entrance goal's neighbours: the
    // plan parks two boxes inside, then moves them on.
    let level = repo_file("levels/edge/parking-room.xsb").to_string_lossy().into_owned();
    let o = bisolve(&["show", &level, "--plan"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("; parking plan: 5 steps for 3 boxes"), "{out}");
    assert!(
        out.contains("; A from start (parked), B from start (parked), C from A, D from B, E from start"),
        "{out}"
    );
    // The picture marks each step's square; the level's own picture comes first.
    let rows: Vec<&str> = out.lines().collect();
    let start = rows.iter().position(|r| r.starts_with("; parking plan")).expect("the plan");
    assert_eq!(rows[start + 3], "# ABD#");
    assert_eq!(rows[start + 4], "# C  #");
    // Without --plan, no plan.
    assert!(!stdout(&bisolve(&["show", &level])).contains("parking plan"));
}

#[test]
fn show_draws_a_still_svg_with_overlays() {
    let dir = Scratch::new("show");
    let svg = dir.path("corner.svg");
    let o = bisolve(&["show", &demo(), "--level", "Corner shop", "--dead", "--reach", "--svg", &svg]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).expect("SVG written");
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let overlay = doc.descendants().find(|n| n.attribute("id") == Some("overlay")).expect("overlays");
    assert!(overlay.children().count() > 5);
    assert!(!doc.descendants().any(|n| n.has_tag_name("animateTransform")));
}
