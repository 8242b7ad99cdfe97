//! Hostile input: whatever bytes a level file holds, and whatever the arguments, `bisolve`
//! gives results or a clear error naming the file, the level, the line and the problem (exit
//! status 2), and never panics or hangs.

mod harness;

use harness::{arg, bisolve, temp_file, Run};

/// `bisolve FILE` on a file of `levels/invalid/`, as text and as JSON.
fn invalid(file: &str) -> (Run, Run) {
    let path = format!("levels/invalid/{file}");
    let text = bisolve(&[&path]);
    let json = bisolve(&[&path, "--json"]);
    (text, json)
}

/// An invalid single-level file: exit 2, one message naming the file, line, level and problem,
/// and in JSON one `invalid` record carrying the same message.
fn check_invalid_level(file: &str, at: &str, problem: &str) {
    let (text, json) = invalid(file);
    for run in [&text, &json] {
        run.expect_code(2);
        let want = format!("bisolve: error: levels/invalid/{file}:{at}: level 1 (");
        assert!(run.stderr.starts_with(&want), "{file}: expected {want:?}\n{run}");
        assert!(run.stderr.contains(problem), "{file}: expected {problem:?}\n{run}");
        assert_eq!(run.stderr.lines().count(), 1, "{file}: one message\n{run}");
    }
    assert!(text.stdout.is_empty(), "{file}\n{text}");
    let records = json.records();
    assert_eq!(records.len(), 1, "{file}\n{json}");
    assert_eq!(records[0]["status"], "invalid", "{file}");
    assert_eq!(records[0]["index"], 1, "{file}");
    let error = records[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains(problem) && error.contains(at), "{file}: {error}");
}

/// A file nothing can be read from: exit 2, one message naming the file and the problem.
fn check_invalid_file(path: &str, problem: &str) {
    for run in [bisolve(&[path]), bisolve(&[path, "--json"])] {
        run.expect_code(2);
        assert_eq!(run.stderr.trim_end(), format!("bisolve: error: {path}: {problem}"), "\n{run}");
        assert!(run.stdout.is_empty(), "\n{run}");
    }
}

#[test]
fn empty_file() {
    check_invalid_file("levels/invalid/empty.xsb", "the file is empty");
    let blank = temp_file("blank.xsb", " \n\t\r\n\n");
    check_invalid_file(arg(&blank), "the file is empty");
}

#[test]
fn text_without_a_level() {
    check_invalid_file(
        "levels/invalid/text-only.xsb",
        "no level found: no line looks like a board row (rows are made of # $ . * @ + and spaces)",
    );
}

#[test]
fn utf16_text_either_way_round() {
    for file in ["utf16.xsb", "utf16-be.xsb"] {
        check_invalid_file(
            &format!("levels/invalid/{file}"),
            "the file looks like UTF-16 text; save it as UTF-8 or Latin-1",
        );
    }
}

#[test]
fn no_player() {
    check_invalid_level("no-player.xsb", "5", "no player (@ or +)");
}

#[test]
fn several_players() {
    check_invalid_level("two-players.xsb", "7:4", "2 players (@ or +)");
}

#[test]
fn boxes_and_goals_differ() {
    check_invalid_level("more-boxes-than-goals.xsb", "5", "3 boxes but 2 goals");
}

#[test]
fn zero_boxes() {
    check_invalid_level("no-boxes.xsb", "5", "no boxes");
}

#[test]
fn unknown_character() {
    check_invalid_level("unknown-char.xsb", "7:5", "unknown character 'X' in a board row");
}

#[test]
fn player_area_open_to_the_edge() {
    check_invalid_level("open-edge.xsb", "5:4", "the player's area is open to the edge of the board");
}

#[test]
fn bytes_that_are_not_utf8() {
    check_invalid_level("non-utf8-row.xsb", "7:4", "unknown character 'ÿ' in a board row");
}

#[test]
fn run_length_counts_zero_or_absurd() {
    check_invalid_level("bad-rle.xsb", "6:3", "bad run-length encoding: count 0 repeats nothing");
    check_invalid_level(
        "rle-huge-count.xsb",
        "6:2",
        "bad run-length encoding: count 99999999999999999999 makes the row wider than 4096 columns",
    );
}

#[test]
fn boards_larger_than_the_representation() {
    check_invalid_level(
        "too-large.xsb",
        "6",
        "too large: 16384 floor squares in the player's area, the most bisolve supports is 16383",
    );
    check_invalid_level(
        "too-many-boxes.xsb",
        "6",
        "too large: 1025 boxes, the most bisolve supports is 1024",
    );
    // Rows and columns past the parser's limits, from a few bytes of run-length text.
    let wide = temp_file("wide.xsb", "; Wide\n5000#|#@$.#|5000#\n");
    let run = bisolve(&[arg(&wide)]);
    run.expect_code(2);
    assert!(run.stderr.contains("wide.xsb:2:1: level 1 (\"Wide\"): bad run-length encoding: count 5000 makes the row wider than 4096 columns"), "{run}");
    let tall = temp_file("tall.xsb", "; Tall\n".to_string() + &"#|".repeat(5000) + "\n");
    let run = bisolve(&[arg(&tall)]);
    run.expect_code(2);
    assert!(run.stderr.contains("tall.xsb:2:"), "{run}");
    assert!(run.stderr.contains("too large: 5000 rows, the most bisolve supports is 4096"), "{run}");
}

/// Random bytes, and random mixtures of level characters, never crash or hang the solver: each
/// run ends with a documented exit status and no panic (checked by `bisolve`).
#[test]
fn random_bytes_give_results_or_errors() {
    const PIECES: &[&str] =
        &["#", "#", "#", " ", " ", "$", ".", "*", "@", "+", "\n", "\n", "|", "3", "; x\n", "\r", "\u{ff}"];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..12 {
        let bytes: Vec<u8> = (0..2000).map(|_| next() as u8).collect();
        let path = temp_file(&format!("random-{i}.bin"), bytes);
        let run = bisolve(&[arg(&path), "--time-limit", "5", "--json"]);
        assert_eq!(run.code, Some(2), "{run}");
        let text: String = (0..600).map(|_| PIECES[next() as usize % PIECES.len()]).collect();
        let path = temp_file(&format!("pieces-{i}.xsb"), text);
        bisolve(&[arg(&path), "--time-limit", "5", "--json"]);
    }
}

/// In a collection with one invalid level, the other levels are still solved, the invalid one
/// gets an `invalid` record, and the exit status says not every level was solved.
#[test]
fn one_invalid_level_in_a_collection() {
    let file = "levels/invalid/mixed-valid-invalid.xsb";
    let run = bisolve(&[file, "--json"]);
    run.expect_code(1);
    let records = run.records();
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap_or_default()).collect();
    assert_eq!(statuses, ["solved", "invalid", "solved"], "\n{run}");
    assert!(records[1]["error"].as_str().unwrap_or_default().contains(":13:5: level 2"), "\n{run}");
    assert!(
        run.stderr.contains(&format!("{file}:13:5: level 2 (\"Invalid in the middle\"): 2 players")),
        "{run}"
    );
    let text = bisolve(&[file]);
    text.expect_code(1);
    assert!(text.stdout.contains("solved 2 of 3 levels"), "{text}");
    assert!(text.stdout.contains("(1 invalid)"), "{text}");
}

#[test]
fn missing_file() {
    let run = bisolve(&["levels/no-such-file.xsb"]);
    run.expect_code(2);
    assert!(run.stderr.starts_with("bisolve: error: levels/no-such-file.xsb: cannot read the file"), "{run}");
}

#[test]
fn directory_given_as_file() {
    // The solve command reads a directory's level files; the commands of one file do not.
    let run = bisolve(&["levels", "--level", "1", "--json"]);
    run.expect_code(0);
    assert_eq!(run.records()[0]["file"], "levels/demo.xsb", "{run}");
    let run = bisolve(&["verify", "levels", "R"]);
    run.expect_code(2);
    assert!(run.stderr.contains("is a directory"), "{run}");
}

/// Bad arguments: exit 2, a message that names the argument, nothing on standard output.
#[test]
fn bad_arguments() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "required arguments were not provided"),
        (&["levels/demo.xsb", "--bogus"], "unexpected argument '--bogus'"),
        (&["levels/demo.xsb", "--threads", "1025"], "invalid value '1025' for '--threads"),
        (&["levels/demo.xsb", "--threads", "many"], "invalid value 'many' for '--threads"),
        (&["levels/demo.xsb", "--set", "dives.backward=0"], "dives.backward must be 1 to 64, not 0"),
        (&["levels/demo.xsb", "--set", "dives.forward=99"], "dives.forward must be 1 to 64, not 99"),
        (&["levels/demo.xsb", "--set", "dives.forward=-1"], "--set: dives.forward: invalid value"),
        (&["levels/demo.xsb", "--set", "forward_weight=0"], "forward_weight must be at least 1"),
        (
            &["levels/demo.xsb", "--set", "restarts.schedule=10:4,x"],
            "restarts.schedule: restart \"x\": expected SECS:DIVES",
        ),
        (&["levels/demo.xsb", "--set", "restarts.schedule=10:99"], "the dives must be 1 to 64"),
        (
            &["levels/demo.xsb", "--set", "restarts.schedule=10:4:fast"],
            "the moves are box or single, the turn fessK, the cells packing or unpacked and the backward bound pull-BOUND, once each, not \"fast\"",
        ),
        (&["levels/demo.xsb", "--set", "restarts.mode=sometimes"], "--set: restarts.mode: unknown variant"),
        (&["levels/demo.xsb", "--set", "push.frezee=false"], "--set: unknown option \"push.frezee\""),
        (&["levels/demo.xsb", "--set", "push.freeze=maybe"], "--set: push.freeze: invalid type: string \"maybe\""),
        (&["levels/demo.xsb", "--set", "push.freeze"], "--set: \"push.freeze\": expected KEY=VALUE"),
        (&["levels/demo.xsb", "--set", "members=bi-fess,nobody"], "unknown portfolio member \"nobody\""),
        (&["levels/demo.xsb", "--preset", "fastest"], "unknown preset \"fastest\": use one of default"),
        (&["levels/demo.xsb", "--options", "levels/nothing-here.toml"], "levels/nothing-here.toml: cannot read"),
        (&["options", "--set", "push.freeze=2"], "push.freeze: invalid type: integer `2`"),
        (&["levels/demo.xsb", "--time-limit=-1"], "--time-limit must be a positive number of seconds"),
        (&["levels/demo.xsb", "--time-limit", "0"], "--time-limit must be a positive number of seconds"),
        (&["levels/demo.xsb", "--time-limit", "NaN"], "--time-limit must be a positive number of seconds"),
        (&["levels/demo.xsb", "--memory", "lots"], "--memory \"lots\": expected a size"),
        (&["levels/demo.xsb", "--memory", "5X"], "unknown unit"),
        (&["levels/demo.xsb", "--memory", "1K"], "at least 1M"),
        (&["levels/demo.xsb", "--time-limit", "-1"], "--time-limit must be a positive number of seconds, not -1"),
        (&["levels/demo.xsb", "--strategy", "nope"], "unknown strategy \"nope\""),
        (&["levels/demo.xsb", "--level", "99"], "levels/demo.xsb: no level \"99\" (the file has 10 levels"),
        (&["levels/demo.xsb", "--level", "2-11"], "levels/demo.xsb: no level \"2-11\" (the file has 10 levels"),
        (&["levels/demo.xsb", "--level", "1,0"], "levels/demo.xsb: no level \"0\""),
        (&["levels/demo.xsb", "--level", "5-3"], "levels/demo.xsb: --level 5-3: the range ends before it starts"),
        (&["bench", "levels/demo.xsb", "--level", "12"], "levels/demo.xsb: no level \"12\""),
        (&["levels/demo.xsb", "--level", "No such title"], "no level \"No such title\""),
        (&["verify", "levels/demo.xsb", "R"], "holds 10 levels; say which one"),
        (
            &["verify", "levels/demo.xsb", "--level", "1", "RxR"],
            "the solution is not LURD: 'x' is not a LURD letter",
        ),
        (&["verify", "levels/demo.xsb", "--level", "1", "99999999999R"], "run-length count too large"),
        (&["show", "levels/demo.xsb", "--color", "purple"], "invalid value 'purple'"),
    ];
    for (args, message) in cases {
        let run = bisolve(args);
        run.expect_code(2);
        assert!(run.stderr.contains(message), "{args:?}: expected {message:?}\n{run}");
        assert!(run.stdout.is_empty(), "{args:?}\n{run}");
        // One error style, wherever the error arises: one line, `bisolve: error: ...`.
        assert!(run.stderr.starts_with("bisolve: error: "), "{args:?}\n{run}");
        assert_eq!(run.stderr.trim_end().lines().count(), 1, "{args:?}\n{run}");
    }
}

/// A time limit too long to be represented is no limit (it used to overflow a deadline).
#[test]
fn absurd_time_limit_is_no_limit() {
    let run = bisolve(&["levels/demo.xsb", "--level", "1", "--time-limit", "1e20", "--json"]);
    run.expect_code(0);
    assert_eq!(run.records()[0]["status"], "solved");
}

/// Messages to a standard error that cannot be written (`2>/dev/full`) are dropped; they used
/// to panic and exit with status 101.
#[test]
fn unwritable_stderr_is_not_a_crash() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    for (args, code) in [
        (&["levels/invalid/no-player.xsb"][..], 2),
        (&["levels/invalid/mixed-valid-invalid.xsb"][..], 1),
        (&["levels/no-such-file.xsb"][..], 2),
    ] {
        let mut cmd = harness::bin();
        cmd.args(args).current_dir(harness::repo()).stdout(std::process::Stdio::null());
        let status = cmd.stderr(full.try_clone().expect("dup")).status().expect("run bisolve");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

/// A solution file of junk is an error, not a crash.
#[test]
fn verify_with_a_binary_solution_file() {
    let junk = temp_file("junk.lurd", (0..=255u8).cycle().take(5000).collect::<Vec<u8>>());
    let run = bisolve(&["verify", "levels/demo.xsb", "--level", "1", arg(&junk)]);
    run.expect_code(2);
    assert!(run.stderr.contains("the solution is not LURD"), "{run}");
}

/// A device or pipe has no size to check first: reading stops one byte past the limit (it used
/// to read `/dev/zero` until memory ran out), and standard input works as a file.
#[cfg(unix)]
#[test]
fn endless_and_piped_input() {
    if std::path::Path::new("/dev/zero").exists() {
        let run = bisolve(&["/dev/zero"]);
        run.expect_code(2);
        assert_eq!(
            run.stderr.trim_end(),
            "bisolve: error: /dev/zero: more than 268435456 bytes; level files that large are not read"
        );
    }
    let mut cmd = harness::bin();
    cmd.args(["/dev/stdin", "--json"]).stdin(std::process::Stdio::piped());
    cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let started = std::time::Instant::now();
    let mut child = cmd.spawn().expect("start bisolve");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(harness::EASY_LEVEL.as_bytes()).expect("write the level");
    }
    let run = harness::finish(child, started);
    run.expect_code(0);
    assert_eq!(run.records()[0]["status"], "solved", "{run}");
}

/// `-` reads the level file from standard input, for every command that reads one; nothing
/// there is an error that names standard input.
#[test]
fn a_dash_reads_standard_input() {
    let piped = |args: &[&str], input: &str| {
        let mut cmd = harness::bin();
        cmd.args(args).stdin(std::process::Stdio::piped());
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        let started = std::time::Instant::now();
        let mut child = cmd.spawn().expect("start bisolve");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(input.as_bytes()).expect("write the levels");
        }
        harness::finish(child, started)
    };
    let demo = std::fs::read_to_string(harness::repo().join("levels/demo.xsb")).expect("the demo levels");
    let run = piped(&["-", "--json", "--level", "1-2"], &demo);
    run.expect_code(0);
    let records = run.records();
    assert_eq!(records.len(), 2, "{run}");
    assert!(records.iter().all(|r| r["file"] == "-" && r["status"] == "solved"), "{run}");
    let verify = piped(&["verify", "-", "--level", "1", "RR"], &demo);
    verify.expect_code(0);
    let empty = piped(&["-"], "");
    empty.expect_code(2);
    assert!(empty.stderr.starts_with("bisolve: error: standard input: "), "{empty}");
}

/// `verify` without a solution checks what the file stores, level by level; a solution that
/// names a missing file is an error, not moves.
#[test]
fn verify_checks_the_solutions_a_sok_file_stores() {
    let sok = temp_file(
        "verify-stored.sok",
        b"Title: good\n#####\n#@$.#\n#####\nSolution (moves 1, pushes 1)\nR\n\n\
          Title: bad\n#####\n#@$.#\n#####\nSolution\nL\n\n\
          Title: none\n#####\n#@$.#\n#####\n",
    );
    let run = bisolve(&["verify", arg(&sok)]);
    run.expect_code(1);
    assert!(run.stdout.contains("(\"good\"): solution on line 5: solved: 1 move, 1 push"), "{run}");
    assert!(run.stdout.contains("(\"bad\"): solution on line 12: not a solution"), "{run}");
    assert!(run.stdout.contains("(\"none\"): no stored solution"), "{run}");
    bisolve(&["verify", arg(&sok), "--level", "good"]).expect_code(0);
    let missing = bisolve(&["verify", "levels/demo.xsb", "--level", "1", "no/such/solution.lurd"]);
    missing.expect_code(2);
    assert!(missing.stderr.contains("no/such/solution.lurd: no such solution file"), "{missing}");
}
