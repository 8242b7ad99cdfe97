//! Unit tests of `parse`.

use super::*;

fn parse(text: &str) -> RawCollection {
    match parse_collection(text.as_bytes()) {
        Ok(c) => c,
        Err(e) => panic!("parse failed: {e}"),
    }
}

fn titles(c: &RawCollection) -> Vec<Option<&str>> {
    c.levels.iter().map(|l| l.title.as_deref()).collect()
}

#[test]
fn file_errors() {
    assert_eq!(parse_collection(b""), Err(ParseError::Empty));
    assert_eq!(parse_collection(b" \n\t\r\n  "), Err(ParseError::Empty));
    assert_eq!(parse_collection(b"\xEF\xBB\xBF\n"), Err(ParseError::Empty));
    assert_eq!(parse_collection(b"; just a comment\nhello\n"), Err(ParseError::NoLevel));
    assert_eq!(parse_collection(b"Title: x\n"), Err(ParseError::NoLevel));
    assert_eq!(parse_collection(b"\xFF\xFE#\x00#\x00"), Err(ParseError::Utf16));
    assert_eq!(parse_collection(b"\xFE\xFF\x00#\x00#"), Err(ParseError::Utf16));
    let utf16: Vec<u8> = "####\n#@$.#\n####\n".bytes().flat_map(|b| [b, 0]).collect();
    assert_eq!(parse_collection(&utf16), Err(ParseError::Utf16));
}

#[test]
fn plain_level_with_title() {
    let c = parse("; 1\n\n#####\n#@$.#\n#####\n");
    assert_eq!(c.levels.len(), 1);
    let level = &c.levels[0];
    assert_eq!(level.index, 1);
    assert_eq!(level.title.as_deref(), Some("1"));
    assert_eq!(level.rows, ["#####", "#@$.#", "#####"]);
    assert_eq!(level.row_lines, [3, 4, 5]);
    assert_eq!(level.error, None);
    assert!(c.header.is_empty());
}

#[test]
fn bom_and_line_endings() {
    let c = parse("\u{FEFF}; a\r#####\r\n#@$.#\r#####\n\n; b\r\r####\r#@*#\r####");
    assert_eq!(titles(&c), [Some("a"), Some("b")]);
    assert_eq!(c.levels[0].rows, ["#####", "#@$.#", "#####"]);
    assert_eq!(c.levels[1].row_lines, [8, 9, 10]);
}

#[test]
fn latin1_fallback() {
    let c = parse_collection(b"; caf\xE9\n####\n#@*#\n####\n").expect("parses");
    assert_eq!(c.levels[0].title.as_deref(), Some("caf\u{e9}"));
}

#[test]
fn alternative_characters_are_normalized() {
    let c = parse("#######\n#-p_bB#\n#P.__ #  \t\n#######\n");
    assert_eq!(c.levels[0].rows, ["#######", "# @ $*#", "#+.   #", "#######"]);
}

#[test]
fn tabs_expand_to_multiples_of_eight() {
    let c = parse("\t####\n\t#@*#\n##\t##\n");
    assert_eq!(c.levels[0].rows[0], "        ####");
    assert_eq!(c.levels[0].rows[2], "##      ##");
}

#[test]
fn run_length_rows() {
    let c = parse("; r\n4#|#.@#|4#\n6#\n#2-.#|6#|\n");
    let level = &c.levels[0];
    assert_eq!(level.rows, ["####", "#.@#", "####", "######", "#  .#", "######"]);
    assert_eq!(level.row_lines, [2, 2, 2, 3, 4, 4]);
    assert_eq!(level.error, None);
}

#[test]
fn unknown_char_inside_board() {
    let c = parse("; t\n#####\n#@$.#\n# x #\n#####\n");
    assert_eq!(c.levels.len(), 1);
    let level = &c.levels[0];
    assert_eq!(level.title.as_deref(), Some("t"));
    assert_eq!(level.rows, ["#####", "#@$.#", "#   #", "#####"]);
    assert_eq!(level.error, Some((LevelErrorKind::UnknownChar('x'), 4, 3)));
}

#[test]
fn unknown_char_in_first_and_last_row() {
    let c = parse("#a##\n#@*#\n##z#\n\nhello #\n");
    let level = &c.levels[0];
    assert_eq!(c.levels.len(), 1);
    assert_eq!(level.rows.len(), 3);
    assert_eq!(level.error, Some((LevelErrorKind::UnknownChar('a'), 1, 2)));
}

#[test]
fn text_with_hash_is_never_a_row() {
    let c = parse("Author: Bob # 2\n; # comment\n####\n#@*#\n####\nLevel #3 of 10\n");
    assert_eq!(c.levels.len(), 1);
    assert_eq!(c.levels[0].rows.len(), 3);
    assert_eq!(c.levels[0].error, None);
    assert_eq!(c.levels[0].metadata, [("Author".into(), "Bob # 2".into())]);
    assert_eq!(c.levels[0].title.as_deref(), Some("# comment"));
}

#[test]
fn bad_counts() {
    let cases: [(&str, usize); 4] = [
        ("#0#\n#@*#\n####\n", 2),
        ("####\n#@*#3\n####\n", 5),
        ("####|#@*#|4\n", 11),
        ("4#|#@*#|99999999999999999999#\n", 9),
    ];
    for (text, column) in cases {
        let c = parse(text);
        assert_eq!(c.levels.len(), 1, "{text:?}");
        let Some((LevelErrorKind::BadRunLength(msg), _, col)) = &c.levels[0].error else {
            panic!("{text:?}: {:?}", c.levels[0].error);
        };
        assert_eq!(*col, column, "{text:?}: {msg}");
    }
}

#[test]
fn count_just_over_the_width() {
    let c = parse("4000#97-#\n");
    let Some((LevelErrorKind::BadRunLength(_), 1, 6)) = &c.levels[0].error else {
        panic!("{:?}", c.levels[0].error);
    };
    assert_eq!(c.levels[0].rows[0].len(), 4001);
}

#[test]
fn too_many_columns() {
    let line = "#".repeat(MAX_COLUMNS + 10);
    let c = parse(&line);
    let expected = LevelErrorKind::TooLarge { what: "columns", actual: MAX_COLUMNS + 10, limit: MAX_COLUMNS };
    assert_eq!(c.levels[0].error, Some((expected, 1, MAX_COLUMNS + 1)));
    assert_eq!(c.levels[0].rows[0].len(), MAX_COLUMNS);
}

#[test]
fn too_many_rows() {
    let text = "#|".repeat(MAX_ROWS + 5) + "\n#\n#|#|\n";
    let c = parse(&text);
    let level = &c.levels[0];
    assert_eq!(level.rows.len(), MAX_ROWS);
    let expected = LevelErrorKind::TooLarge { what: "rows", actual: MAX_ROWS + 8, limit: MAX_ROWS };
    assert_eq!(level.error, Some((expected, 1, 1)));
}

#[test]
fn too_many_rows_one_per_line() {
    let c = parse(&"#\n".repeat(MAX_ROWS + 3));
    let expected = LevelErrorKind::TooLarge { what: "rows", actual: MAX_ROWS + 3, limit: MAX_ROWS };
    assert_eq!(c.levels[0].error, Some((expected, MAX_ROWS + 1, 1)));
    assert_eq!(c.levels[0].rows.len(), MAX_ROWS);
}

#[test]
fn file_cell_budget_bounds_memory() {
    // Each line expands to 4096 x 4096 cells; 5 levels would need 80 Mi cells.
    let level = "4096#|".repeat(MAX_ROWS) + "\n\n";
    let c = parse(&level.repeat(5));
    let stored: usize = c.levels.iter().flat_map(|l| &l.rows).map(String::len).sum();
    assert!(stored <= MAX_FILE_CELLS);
    let Some((LevelErrorKind::TooLarge { what, .. }, _, _)) = &c.levels[4].error else {
        panic!("{:?}", c.levels[4].error);
    };
    assert_eq!(*what, "cells in the file");
}

#[test]
fn header_and_first_title() {
    let c = parse("; Microban\n\n; Copyright: X\n;\n; 1\n\n####\n#@*#\n####\n\n; 2\n\n####\n#@*#\n####\n");
    assert_eq!(c.header, ["Microban", "Copyright: X"]);
    assert_eq!(titles(&c), [Some("1"), Some("2")]);
}

#[test]
fn sok_metadata_after_board() {
    let text = "Collection: Demo\n\nFirst\n####\n#@*#\n####\nTitle: One\nAuthor: Ann\nComment:\n#####\n\nline two\nComment-End:\n\nSecond\n####\n#@*#\n####\nAuthor: Bob\n";
    let c = parse(text);
    assert_eq!(c.header, ["Collection: Demo"]);
    assert_eq!(titles(&c), [Some("One"), Some("Second")]);
    assert_eq!(
        c.levels[0].metadata,
        [
            ("Title".to_string(), "One".to_string()),
            ("Author".into(), "Ann".into()),
            ("Comment".into(), "#####\n\nline two".into()),
        ]
    );
    assert_eq!(c.levels[1].metadata, [("Author".into(), "Bob".into())]);
}

#[test]
fn unterminated_comment_block_is_one_line() {
    let c = parse("####\n#@*#\n####\nComment:\n####\n#@*#\n####\n");
    assert_eq!(c.levels.len(), 2);
    assert_eq!(c.levels[0].metadata, [("Comment".into(), String::new())]);
}

#[test]
fn titles_after_boards() {
    let c = parse("####\n#@*#\n####\nLevel 1\n\n####\n#@*#\n####\nLevel 2\n");
    assert_eq!(titles(&c), [Some("Level 1"), Some("Level 2")]);
}

#[test]
fn titles_without_blank_lines_go_to_the_next_board() {
    let c = parse("; 1\n####\n#@*#\n####\n; 2\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [Some("1"), Some("2")]);
    let c = parse("####\n#@*#\n####\nTitle: A\n; 2\n####\n#@*#\n####\nTitle: B\n");
    assert_eq!(titles(&c), [Some("A"), Some("B")]);
    assert_eq!(c.levels[0].metadata.len(), 1);
}

#[test]
fn title_before_wins_over_text_after() {
    let c = parse("; 1\n####\n#@*#\n####\nnotes on one\n\n; 2\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [Some("1"), Some("2")]);
}

#[test]
fn title_under_the_board_beats_a_header_comment() {
    let c = parse("; My set\n\n####\n#@*#\n####\nLevel A\n\n####\n#@*#\n####\nLevel B\n");
    assert_eq!(titles(&c), [Some("Level A"), Some("Level B")]);
    assert_eq!(c.header, ["My set"]);
}

#[test]
fn comment_under_the_board_is_not_a_title() {
    let c = parse("; 1\n\n####\n#@*#\n####\n; notes\n\n; 2\n\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [Some("1"), Some("2")]);
}

#[test]
fn level_without_any_title() {
    let c = parse("####\n#@*#\n####\n\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [None, None]);
}

#[test]
fn metadata_before_first_board() {
    let c = parse("Author: Ann\n\nTitle: T\nAuthor: Bob\n####\n#@*#\n####\n");
    assert_eq!(c.header, ["Author: Ann"]);
    assert_eq!(c.levels[0].title.as_deref(), Some("T"));
    assert_eq!(c.levels[0].metadata.len(), 2);
}

#[test]
fn solution_sections_follow_their_board() {
    let text = "Title line\n\n####\n#@$.#\n#####\nTitle: One\n\nSolution (moves 2, pushes 1)\nlR\n\n\
                    Solution/Pushes\n2r\nU l\n\n####\n#@*#\n####\nSolution: 3rUl\nsolution of nothing\n";
    let c = parse(text);
    assert_eq!(titles(&c), [Some("One"), None]);
    let first = &c.levels[0].solutions;
    assert_eq!(first.len(), 2);
    assert_eq!(
        first[0],
        SolutionSection { title: "Solution (moves 2, pushes 1)".into(), lurd: "lR".into(), line: 8 }
    );
    assert_eq!((first[1].title.as_str(), first[1].lurd.as_str()), ("Solution/Pushes", "2rUl"));
    assert_eq!(c.levels[0].metadata, [("Title".into(), "One".into())]);
    let second = &c.levels[1].solutions;
    assert_eq!(second.len(), 2);
    assert_eq!((second[0].title.as_str(), second[0].lurd.as_str()), ("Solution: 3rUl", "3rUl"));
    assert_eq!((second[1].title.as_str(), second[1].lurd.as_str()), ("solution of nothing", ""));
    // "solution of nothing" is a title line with no moves, not the level's title.
    assert_eq!(c.levels[1].title, None);
}

#[test]
fn solution_lines_are_never_titles() {
    // Without the Solution section, "uuLL" would title the second level.
    let c = parse("; A\n####\n#@*#\n####\n\nSolution\nuuLL\n\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [Some("A"), None]);
    assert_eq!(c.levels[0].solutions[0].lurd, "uuLL");
    assert!(c.levels[1].solutions.is_empty());
    // A word that merely starts with "Solution" is text; a section before any board is dropped.
    let c = parse("Solution\nrR\n\nSolutions welcome\n####\n#@*#\n####\n");
    assert_eq!(titles(&c), [Some("Solutions welcome")]);
    assert!(c.levels[0].solutions.is_empty());
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    /// Pieces of level files, glued at random.
    const TOKENS: &[&str] = &[
        "#",
        "##",
        " ",
        "-",
        "_",
        ".",
        "$",
        "*",
        "@",
        "+",
        "p",
        "B",
        "x",
        "\t",
        "|",
        "0",
        "7",
        "99999999999999999999",
        "4096",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "; ",
        ";",
        "Title: ",
        "Author:",
        "Comment:",
        "Comment-End:",
        "Comment_End:",
        ":",
        "é",
        "\u{feff}",
    ];

    fn row() -> impl Strategy<Value = String> {
        "[ #.$*@+]{0,12}".prop_map(|s| {
            let s = s.trim_end().to_string();
            if s.contains('#') {
                s
            } else {
                format!("{s}#")
            }
        })
    }

    fn board() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec(row(), 1..6)
    }

    fn separator() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("\n".to_string()),
            Just("\n\n".to_string()),
            "[a-zA-Z0-9 ]{0,10}".prop_map(|t| format!("\n; {t}\n")),
            "[a-zA-Z0-9 ]{0,10}".prop_map(|t| format!("\n\n; {t}\n\n")),
        ]
    }

    proptest! {
        #[test]
        fn never_panics(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let _ = parse_collection(&bytes);
        }

        #[test]
        fn never_panics_on_board_like_text(
            tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..400)
        ) {
            let _ = parse_collection(tokens.concat().as_bytes());
        }

        #[test]
        fn separated_boards_count(
            boards in prop::collection::vec(board(), 1..8),
            seps in prop::collection::vec(separator(), 8),
        ) {
            let mut text = String::new();
            for (board, sep) in boards.iter().zip(&seps) {
                text.push_str(&board.join("\n"));
                // A plain newline would join the boards: use a blank line instead.
                text.push_str(if sep == "\n" { "\n\n" } else { sep });
            }
            let c = parse_collection(text.as_bytes());
            prop_assert!(c.is_ok());
            let c = c.unwrap_or_default();
            prop_assert_eq!(c.levels.len(), boards.len());
        }

        #[test]
        fn round_trip(
            levels in prop::collection::vec(("[a-zA-Z0-9]{1,3}[a-zA-Z0-9 ]{0,10}", board()), 1..8)
        ) {
            let mut text = String::new();
            for (title, rows) in &levels {
                text.push_str(&format!("; {title}\n{}\n\n", rows.join("\n")));
            }
            let c = parse_collection(text.as_bytes());
            prop_assert!(c.is_ok());
            let c = c.unwrap_or_default();
            prop_assert_eq!(c.levels.len(), levels.len());
            for (level, (title, rows)) in c.levels.iter().zip(&levels) {
                prop_assert_eq!(level.title.as_deref(), Some(title.trim()));
                prop_assert_eq!(&level.rows, rows);
                prop_assert_eq!(&level.error, &None);
            }
        }
    }
}
