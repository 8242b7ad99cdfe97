//! Level-file parsing on the shared benchmark collections and the format fixtures.

use std::path::{Path, PathBuf};

use bisolve_board::parse::{parse_collection, RawCollection, RawLevel};

/// `/work/shared/levels`, or `None` (with a message) when this checkout has no shared data.
fn shared_levels() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: shared levels not found at {}", dir.display());
        None
    }
}

/// The bytes of a fixture in `levels/formats/`.
fn fixture_bytes(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/formats").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn parse_bytes(name: &str, bytes: &[u8]) -> RawCollection {
    parse_collection(bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn fixture(name: &str) -> RawCollection {
    parse_bytes(name, &fixture_bytes(name))
}

fn titles(c: &RawCollection) -> Vec<&str> {
    c.levels.iter().map(|l| l.title.as_deref().unwrap_or("<none>")).collect()
}

fn meta(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Checks what the solver will need: rows in plain XSB, one player, boxes == goals >= 1,
/// lines in order, no error.
fn assert_sane(file: &str, level: &RawLevel) {
    let what = format!("{file} level {} ({:?})", level.index, level.title);
    assert_eq!(level.error, None, "{what}");
    assert!(!level.rows.is_empty(), "{what}");
    assert_eq!(level.rows.len(), level.row_lines.len(), "{what}");
    assert!(level.row_lines.windows(2).all(|w| w[0] <= w[1]), "{what}");
    let cells = || level.rows.iter().flat_map(|r| r.chars());
    assert!(cells().all(|c| "# .$*@+".contains(c)), "{what}: {:?}", level.rows);
    assert!(level.rows.iter().all(|r| r.trim_end() == r), "{what}");
    let count = |set: &str| cells().filter(|c| set.contains(*c)).count();
    assert_eq!(count("@+"), 1, "{what}: players");
    assert_eq!(count("$*"), count(".*+"), "{what}: boxes vs goals");
    assert!(count("$*") >= 1, "{what}: no boxes");
}

/// Parses a shared file and checks count, sanity and that each title is its number
/// (optionally followed by a quoted name, as in `; 155 'The Dungeon'`).
fn check_shared(dir: &Path, file: &str, count: usize, first_number: usize) -> RawCollection {
    let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let c = parse_bytes(file, &bytes);
    assert_eq!(c.levels.len(), count, "{file}");
    for (i, level) in c.levels.iter().enumerate() {
        assert_eq!(level.index, i + 1, "{file}");
        assert_sane(file, level);
        let number = (first_number + i).to_string();
        let title = level.title.as_deref().unwrap_or("");
        let named = title.strip_prefix(&number).is_some_and(|rest| rest.is_empty() || rest.starts_with(" '"));
        assert!(named, "{file} level {}: title {title:?}", i + 1);
    }
    c
}

#[test]
fn microban() {
    let Some(dir) = shared_levels() else { return };
    let c = check_shared(&dir, "microban.xsb", 155, 1);
    let t = titles(&c);
    assert_eq!(&t[..3], ["1", "2", "3"]);
    assert_eq!(t[43], "44 'Duh!'");
    assert_eq!(t[99], "100");
    assert_eq!(t[154], "155 'The Dungeon'");
    assert_eq!(c.header[0], "Microban");
    assert_eq!(c.header[1], "Copyright: David W. Skinner");
    assert_eq!(c.header.last().map(String::as_str), Some("regular sets."));
    assert_eq!(c.levels[0].rows[0], "####");
    assert_eq!(c.levels[0].row_lines[0], 17);
}

#[test]
fn microban2() {
    let Some(dir) = shared_levels() else { return };
    let c = check_shared(&dir, "microban2.xsb", 135, 1);
    let t = titles(&c);
    assert_eq!((t[0], t[64], t[130]), ("1", "65", "131"));
    assert_eq!(t[134], "135 'Fractal'");
    assert_eq!(c.header[0], "Microban II");
}

#[test]
fn sasquatch() {
    let Some(dir) = shared_levels() else { return };
    let c = check_shared(&dir, "sasquatch.xsb", 50, 1);
    let t = titles(&c);
    assert_eq!((t[0], t[24], t[47]), ("1", "25", "48"));
    assert_eq!(t[49], "50 'Particle Theory'");
}

#[test]
fn xsokoban() {
    let Some(dir) = shared_levels() else { return };
    let c = check_shared(&dir, "xsokoban-1-45.xsb", 45, 1);
    let expected: Vec<String> = (1..=45).map(|n| n.to_string()).collect();
    assert_eq!(titles(&c), expected);
    assert!(c.header[0].starts_with("XSokoban 90"));
}

#[test]
fn boxoban() {
    let Some(dir) = shared_levels() else { return };
    let expected: Vec<String> = (0..1000).map(|n| n.to_string()).collect();
    for file in ["boxoban-medium-train-000.txt", "boxoban-hard-000.txt", "boxoban-unfiltered-test-000.txt"] {
        let c = check_shared(&dir, file, 1000, 0);
        assert_eq!(titles(&c), expected, "{file}");
        assert!(c.header.is_empty(), "{file}");
        assert!(c.levels.iter().all(|l| l.rows.len() == 10), "{file}");
    }
}

#[test]
fn every_fixture_is_a_sane_collection() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/formats");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files = 0;
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let c = parse_bytes(&name, &bytes);
        for level in &c.levels {
            assert_sane(&name, level);
            assert!(level.title.is_some(), "{name} level {}", level.index);
        }
        files += 1;
    }
    assert!(files >= 7, "fixtures missing from {}", dir.display());
}

#[test]
fn sok_metadata_after_the_board() {
    let c = fixture("sok-metadata.sok");
    assert_eq!(c.header, ["Collection: bisolve format fixtures, SOK metadata", "Author: bisolve tests"]);
    assert_eq!(titles(&c), ["Corridor", "Two Rooms"]);
    let comment = "A one-push warm-up.\n\n\
                   The next line looks like a board row but is part of this comment block:\n\
                   #$.#";
    assert_eq!(
        c.levels[0].metadata,
        meta(&[("Title", "Corridor"), ("Author", "bisolve tests"), ("Comment", comment)])
    );
    assert_eq!(c.levels[0].rows, ["#####", "#@$.#", "#####"]);
    assert_eq!(
        c.levels[1].metadata,
        meta(
            &[("Title", "Two Rooms"), ("Date Created", "2024-05-01"), ("Comment", "Push both boxes down."),]
        )
    );
    assert_eq!(c.levels[1].row_lines, [18, 19, 20, 21, 22, 23]);
}

#[test]
fn solution_sections() {
    let c = fixture("solutions.sok");
    assert_eq!(titles(&c), ["Round the bend", "Side by side"]);
    assert_eq!(c.header[0], "Collection: bisolve format fixtures, solutions");
    let sections: Vec<Vec<(&str, &str, usize)>> = c
        .levels
        .iter()
        .map(|l| l.solutions.iter().map(|s| (s.title.as_str(), s.lurd.as_str(), s.line)).collect())
        .collect();
    assert_eq!(
        sections,
        [
            vec![("Solution (moves 6, pushes 3)", "dRurDD", 15), ("Solution/Moves", "dRur2D", 19)],
            vec![("Solution: u3rDu2l2dr2R3lu3R", "u3rDu2l2dr2R3lu3R", 31)],
        ]
    );
    // Every stored solution solves its level.
    let collection = bisolve_board::load_collection(&fixture_bytes("solutions.sok")).expect("parses");
    for entry in &collection.entries {
        let level = entry.level.as_ref().expect("valid");
        assert_eq!(level.solutions().len(), c.levels[entry.index - 1].solutions.len());
        for section in level.solutions() {
            let steps = bisolve_board::moves::parse_lurd(&section.lurd).expect("LURD");
            bisolve_board::moves::replay(level.board(), level.start(), &steps)
                .unwrap_or_else(|e| panic!("level {}: {}: {e}", entry.index, section.title));
        }
    }
}

#[test]
fn titles_before_and_after_boards() {
    let c = fixture("titles-after-board.sok");
    assert_eq!(titles(&c), ["Level A", "Level B", "Level C", "Level D"]);
    assert_eq!(c.header, ["bisolve format fixtures: titles before and after boards"]);
    assert_eq!(c.levels[2].metadata, meta(&[("Title", "Level C")]));
    assert!(c.levels[3].metadata.is_empty());
}

#[test]
fn run_length_rows() {
    let c = fixture("rle-rows.xsb");
    assert_eq!(titles(&c), ["1", "2", "3"]);
    assert_eq!(c.levels[0].rows, ["#####", "#@$.#", "#####"]);
    assert_eq!(c.levels[0].row_lines, [4, 4, 4]);
    assert_eq!(c.levels[1].rows[2], "# $$ #");
    assert_eq!(c.levels[2].rows, [" ####", "##  #", "# $ .#", "#@  ##", "#####"]);
    assert_eq!(c.levels[2].row_lines, [15, 15, 15, 16, 16]);
}

#[test]
fn crlf_line_endings() {
    let bytes = fixture_bytes("crlf.xsb");
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "fixture lost its CRLF");
    let c = parse_bytes("crlf.xsb", &bytes);
    assert_eq!(titles(&c), ["1", "2"]);
    assert_eq!(c.header, ["bisolve format fixtures: CRLF line endings"]);
    assert_eq!(c.levels[0].rows, ["#####", "#@$.#", "#####"]);
    assert_eq!(c.levels[1].row_lines, [11, 12, 13, 14, 15, 16]);
}

#[test]
fn latin1_comments() {
    let bytes = fixture_bytes("latin1-comment.xsb");
    assert!(std::str::from_utf8(&bytes).is_err(), "fixture must not be UTF-8");
    assert!(bytes.contains(&0xE9));
    let c = parse_bytes("latin1-comment.xsb", &bytes);
    assert_eq!(titles(&c), ["Caf\u{e9}", "Na\u{ef}ve"]);
    assert_eq!(c.header[1], "Auteur: Ren\u{e9} Ch\u{e2}teau, \u{a9} 2024 (this file is not valid UTF-8)");
}

#[test]
fn dash_and_underscore_floors() {
    let c = fixture("dash-floor.xsb");
    assert_eq!(titles(&c), ["dashes", "underscores"]);
    assert_eq!(c.levels[0].rows, ["  ####", "###  #", "# $ .#", "#@  ##", "#####"]);
    assert_eq!(c.levels[1].rows, ["######", "#    #", "# $$ #", "# .. #", "#  @ #", "######"]);
}

#[test]
fn mixed_formats() {
    let c = fixture("mixed-formats.sok");
    assert_eq!(titles(&c), ["Plain XSB", "Run-length", "Letters p and b", "Tabs", "Level under the board"]);
    assert_eq!(c.levels[1].rows, ["######", "#@ $.#", "######"]);
    assert_eq!(c.levels[2].rows[1], "#@ $ .#");
    assert_eq!(c.levels[2].metadata, meta(&[("Title", "Letters p and b"), ("Author", "bisolve tests")]));
    let tabs = &c.levels[3];
    assert_eq!(tabs.rows[0], "        ####");
    assert_eq!(tabs.rows[2], "        #$ #");
    // Rows 2 and 3 are split by a lone CR, so they sit on consecutive lines.
    assert_eq!(tabs.row_lines, [20, 21, 22, 23, 24]);
}
