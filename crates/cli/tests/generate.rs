//! `bisolve generate`: solvable levels, the same bytes for the same seed.

mod common;

use bisolve_board::load_collection;
use bisolve_board::moves::{parse_lurd, replay};
use common::{bisolve, code, stderr, stdout};

const ARGS: [&str; 10] =
    ["generate", "--size", "9x9", "--boxes", "3", "--count", "6", "--min-pushes", "8", "-q"];

fn generate(seed: &str, extra: &[&str]) -> String {
    let mut args = ARGS.to_vec();
    args.extend(["--seed", seed]);
    args.extend(extra);
    let o = bisolve(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn same_seed_same_bytes() {
    let a = generate("17", &[]);
    assert_eq!(a, generate("17", &[]));
    assert_ne!(a, generate("18", &[]));
    let c = load_collection(a.as_bytes()).expect("an XSB collection");
    let titles: Vec<String> = c.entries.iter().map(|e| e.title.clone().expect("titled")).collect();
    assert_eq!(titles, (1..=6).map(|i| format!("17-{i}")).collect::<Vec<_>>());
    assert!(c.header[0].starts_with("bisolve generate --seed 17 --count 6 --size 9x9 --boxes 3"));
}

#[test]
fn generated_levels_are_solvable() {
    for extra in [&["--solutions"][..], &["--solutions", "--rle"][..]] {
        let text = generate("3", extra);
        let c = load_collection(text.as_bytes()).expect("a SOK collection");
        assert_eq!(c.entries.len(), 6);
        for entry in &c.entries {
            let level = entry.level.as_ref().expect("valid");
            assert_eq!(level.board().n_boxes(), 3);
            assert!(level.board().width() <= 9 && level.board().height() <= 9);
            let [solution] = level.solutions() else { panic!("{:?}: {:?}", entry.title, level.solutions()) };
            let steps = parse_lurd(&solution.lurd).expect("LURD");
            let counts = replay(level.board(), level.start(), &steps).expect("the solution solves the level");
            assert!(counts.pushes >= 8, "{:?}: {} pushes", entry.title, counts.pushes);
        }
        // The boards are those of the plain XSB output.
        let plain = load_collection(generate("3", &[]).as_bytes()).expect("XSB");
        for (a, b) in c.entries.iter().zip(&plain.entries) {
            assert_eq!(a.level.as_ref().expect("valid").rows(), b.level.as_ref().expect("valid").rows());
        }
    }
}

#[test]
fn impossible_requests_are_refused() {
    for (args, message) in [
        (&["generate", "--size", "3x3"][..], "--size"),
        (&["generate", "--size", "ten"][..], "--size"),
        (&["generate", "--size", "6x6", "--boxes", "12"][..], "--boxes"),
    ] {
        let o = bisolve(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
    // Too few candidates to find them all: exit 1, with what was made.
    let o = bisolve(&[
        "generate",
        "--size",
        "7x7",
        "--boxes",
        "2",
        "--count",
        "5",
        "--min-pushes",
        "500",
        "--attempts",
        "3",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("made only 0 of 5"), "{}", stderr(&o));
}

#[test]
fn the_defaults_make_levels_worth_solving() {
    let o = bisolve(&["generate", "--count", "4", "--solutions", "-q"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let c = load_collection(stdout(&o).as_bytes()).expect("a SOK collection");
    assert_eq!(c.entries.len(), 4);
    for entry in &c.entries {
        let level = entry.level.as_ref().expect("valid");
        let [solution] = level.solutions() else { panic!("{:?}: {:?}", entry.title, level.solutions()) };
        let steps = parse_lurd(&solution.lurd).expect("LURD");
        let counts = replay(level.board(), level.start(), &steps).expect("the solution solves the level");
        assert!(
            counts.pushes >= 10,
            "{:?}: {} pushes with the default --min-pushes",
            entry.title,
            counts.pushes
        );
    }
}
