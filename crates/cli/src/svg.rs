//! SVG pictures: an animated picture of a solution, and a still picture of a level with its
//! dead squares and the player's reach.
//!
//! The board (floor, walls, goals) is drawn once; the player and each box are one element whose
//! position is animated with SMIL (`<animateTransform>`), so the file grows with the number of
//! moves (about 6 bytes a move for the player, plus about 20 bytes a push) rather than with the
//! board's size times the moves. Coordinates are in squares (`viewBox` units); the picture is
//! drawn [`TILE`] pixels a square. The animation plays one move per `1/speed` seconds, holds
//! the solved position for [`HOLD_SECONDS`], and starts again; clicking the picture (when it is
//! opened on its own, where scripts run) pauses and resumes it.

use std::fmt::Write as _;

use bisolve_board::render::Overlay;
use bisolve_board::{Board, BoxMap, Cell, Level, Reach, State};

use crate::output::count;
use crate::scene::{Scene, Square};
use crate::timeline::Timeline;

/// Pixels per square.
pub const TILE: usize = 32;

/// Seconds the solved position stays on screen before the animation starts again.
pub const HOLD_SECONDS: f64 = 2.0;

/// Height of a caption line under the board, in squares.
const CAPTION_LINE: f64 = 0.65;

/// Font size of the caption, in squares, unless a line needs a smaller one to fit.
const FONT: f64 = 0.45;

/// Average width of a character of the caption's font, in ems (an estimate for sans-serif).
const CHAR_WIDTH: f64 = 0.55;

const FLOOR: &str = "#efe6d2";
const WALL: &str = "#7a5c45";
const WALL_EDGE: &str = "#5b4332";
const GOAL: &str = "#c0392b";
const BOX: &str = "#d9902f";
const BOX_ON_GOAL: &str = "#4f9d5d";
const BOX_EDGE: &str = "#6b4213";
const PLAYER: &str = "#2f5fd0";
const PLAYER_EDGE: &str = "#183a85";
const TEXT: &str = "#333333";
const REACH: &str = "#3cb043";
const DEAD: &str = "#e03131";
const PULL_DEAD: &str = "#b03cc8";

/// An animated picture of a solution: one frame per move (plus the start), the player and the
/// boxes sliding from square to square. `speed` is in moves per second; the caption under the
/// board is the title and the solution's size.
pub fn animated(level: &Level, timeline: &Timeline, title: &str, speed: f64) -> String {
    let board = level.board();
    let scene = Scene::new(board);
    let moves = timeline.moves().len();
    let mut svg = String::new();
    let caption = [
        format!("{title}:"),
        format!("{}, {}", count(moves as u64, "move"), count(timeline.n_pushes() as u64, "push")),
    ];
    let data = [("frames", timeline.n_frames()), ("moves", moves), ("pushes", timeline.n_pushes())];
    open(&mut svg, &scene, &caption, &data);
    let _ = writeln!(svg, "<desc>{}</desc>", timeline.lurd());
    board_layer(&mut svg, &scene);
    let dur = format!("{}s", number(moves as f64 / speed.max(1e-3)));
    // Boxes: each holds still between pushes and slides during its own pushes.
    for (i, track) in timeline.box_tracks().iter().enumerate() {
        let (_, first) = track[0];
        let colour = |c: Cell| if board.is_goal(c) { BOX_ON_GOAL } else { BOX };
        let (x, y) = board.xy(first);
        let _ = write!(svg, r#"<g id="box{i}" transform="translate({x} {y})" fill="{}">"#, colour(first));
        svg.push_str(r##"<use href="#box"/>"##);
        let moved = track.iter().any(|&(_, c)| c != first);
        if moved && moves > 0 {
            let times: Vec<String> = track.iter().map(|&(f, _)| number(f as f64 / moves as f64)).collect();
            let values: Vec<String> = track
                .iter()
                .map(|&(_, c)| {
                    let (x, y) = board.xy(c);
                    format!("{x} {y}")
                })
                .collect();
            let _ = write!(
                svg,
                r#"<animateTransform attributeName="transform" type="translate" values="{}" keyTimes="{}" dur="{dur}" begin="play.begin" fill="freeze"/>"#,
                values.join(";"),
                times.join(";"),
            );
            let colours: Vec<&str> = track.iter().map(|&(_, c)| colour(c)).collect();
            if colours.iter().any(|&c| c != colours[0]) {
                let _ = write!(
                    svg,
                    r#"<animate attributeName="fill" values="{}" keyTimes="{}" calcMode="discrete" dur="{dur}" begin="play.begin" fill="freeze"/>"#,
                    colours.join(";"),
                    times.join(";"),
                );
            }
        }
        svg.push_str("</g>\n");
    }
    // The player: one position per frame, evenly spaced.
    let (x, y) = board.xy(timeline.start().player);
    let _ = write!(svg, r#"<g class="player" transform="translate({x} {y})">"#);
    svg.push_str(r##"<use href="#player"/>"##);
    if moves > 0 {
        let mut values = String::with_capacity(6 * (moves + 1));
        let _ = write!(values, "{x} {y}");
        for m in timeline.moves() {
            let (x, y) = board.xy(m.to);
            let _ = write!(values, ";{x} {y}");
        }
        let _ = write!(
            svg,
            r#"<animateTransform id="play" attributeName="transform" type="translate" values="{values}" dur="{dur}" begin="0s;play.end+{}s" fill="freeze"/>"#,
            number(HOLD_SECONDS),
        );
    }
    svg.push_str("</g>\n");
    // A progress bar along the bottom of the board.
    if moves > 0 {
        let _ = writeln!(
            svg,
            r#"<rect x="0" y="{}" width="0" height="0.08" fill="{PLAYER}"><animate attributeName="width" from="0" to="{}" dur="{dur}" begin="play.begin" fill="freeze"/></rect>"#,
            scene.height, scene.width,
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A still picture of a position, with the overlays asked for (colour is always used) and a
/// caption: the title and a legend of the overlays.
pub fn still(board: &Board, state: &State, overlay: Overlay, title: &str) -> String {
    let scene = Scene::new(board);
    let mut svg = String::new();
    let legend = legend(overlay);
    let mut caption = vec![if legend.is_empty() { title.to_string() } else { format!("{title}:") }];
    caption.extend(legend);
    open(&mut svg, &scene, &caption, &[("boxes", state.boxes.len())]);
    board_layer(&mut svg, &scene);
    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&state.boxes);
    let mut reach = Reach::new(board.n_cells());
    reach.fill(board, &boxes, state.player);
    let mut marks = String::new();
    for y in 0..scene.height {
        for x in 0..scene.width {
            let (Square::Floor(c) | Square::Goal(c)) = scene.at(x, y) else { continue };
            if boxes.is_box(c) || c == state.player {
                continue;
            }
            if overlay.reach && reach.contains(c) {
                let _ = write!(
                    marks,
                    r#"<rect x="{x}" y="{y}" width="1" height="1" fill="{REACH}" fill-opacity="0.3"/>"#
                );
            }
            if overlay.dead && board.is_push_dead(c) {
                let _ = write!(marks, r##"<use href="#dead" x="{x}" y="{y}" stroke="{DEAD}"/>"##);
            } else if overlay.pull_dead && board.is_pull_dead(c) {
                let _ = write!(marks, r##"<use href="#dead" x="{x}" y="{y}" stroke="{PULL_DEAD}"/>"##);
            }
        }
    }
    if !marks.is_empty() {
        let _ = writeln!(svg, r#"<g id="overlay">{marks}</g>"#);
    }
    for &c in &state.boxes {
        let (x, y) = board.xy(c);
        let fill = if board.is_goal(c) { BOX_ON_GOAL } else { BOX };
        let _ = write!(svg, r##"<use href="#box" x="{x}" y="{y}" fill="{fill}"/>"##);
    }
    let (x, y) = board.xy(state.player);
    let _ = writeln!(svg, r##"<use href="#player" x="{x}" y="{y}"/>"##);
    svg.push_str("</svg>\n");
    svg
}

/// The legend of the overlays drawn by [`still`], one part per overlay.
fn legend(overlay: Overlay) -> Vec<String> {
    let mut parts = Vec::new();
    if overlay.reach {
        parts.push("green: player reach;");
    }
    if overlay.dead {
        parts.push("red x: dead for pushing;");
    }
    if overlay.pull_dead {
        parts.push("purple x: dead for pulling;");
    }
    let mut parts: Vec<String> = parts.into_iter().map(str::to_string).collect();
    if let Some(last) = parts.last_mut() {
        last.pop();
    }
    parts
}

/// Caption parts gathered into lines that fit `width` squares at the normal font size (a part
/// longer than that gets a line of its own, drawn smaller).
fn caption_lines(parts: &[String], width: usize) -> Vec<String> {
    let fits = |chars: usize| chars as f64 * FONT * CHAR_WIDTH <= width as f64 - 0.3;
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if fits(line.chars().count() + 1 + part.chars().count()) => {
                line.push(' ');
                line.push_str(part);
            }
            _ => lines.push(part.clone()),
        }
    }
    lines
}

/// The XML declaration, the root element, a title, the caption and the shapes used later.
fn open(svg: &mut String, scene: &Scene, caption: &[String], data: &[(&str, usize)]) {
    let lines = caption_lines(caption, scene.width);
    let (w, h) = (scene.width, scene.height as f64 + CAPTION_LINE * lines.len() as f64 + 0.25);
    let data: String = data.iter().map(|(k, v)| format!(r#" data-{k}="{v}""#)).collect();
    let title = escape(&caption.join(" "));
    let _ = writeln!(svg, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {}" width="{}" height="{}"{data} onclick="if(this.animationsPaused())this.unpauseAnimations();else this.pauseAnimations()">"#,
        number(h),
        w * TILE,
        (h * TILE as f64).round(),
    );
    let _ = writeln!(svg, "<title>{title}</title>");
    let _ = writeln!(
        svg,
        r#"<defs><g id="box"><rect x="0.1" y="0.1" width="0.8" height="0.8" rx="0.12" stroke="{BOX_EDGE}" stroke-width="0.06"/><path d="M0.25 0.25L0.75 0.75M0.75 0.25L0.25 0.75" stroke="{BOX_EDGE}" stroke-width="0.06" stroke-opacity="0.5"/></g><g id="player"><circle cx="0.5" cy="0.5" r="0.3" fill="{PLAYER}" stroke="{PLAYER_EDGE}" stroke-width="0.06"/><circle cx="0.5" cy="0.42" r="0.1" fill="{FLOOR}"/></g><path id="dead" d="M0.3 0.3L0.7 0.7M0.7 0.3L0.3 0.7" stroke-width="0.08" fill="none"/></defs>"#
    );
    for (i, line) in lines.iter().enumerate() {
        let room = (w as f64 - 0.3) / (line.chars().count().max(1) as f64 * CHAR_WIDTH);
        let _ = writeln!(
            svg,
            r#"<text x="0.15" y="{}" font-family="sans-serif" font-size="{}" fill="{TEXT}">{}</text>"#,
            number(scene.height as f64 + CAPTION_LINE * (i + 1) as f64),
            number(FONT.min(room)),
            escape(line),
        );
    }
}

/// Floor, walls and goals.
fn board_layer(svg: &mut String, scene: &Scene) {
    let path = |pick: &dyn Fn(Square) -> bool| -> String {
        let mut d = String::new();
        for (x, y, n) in scene.runs(pick) {
            let _ = write!(d, "M{x} {y}h{n}v1h-{n}z");
        }
        d
    };
    let floor = path(&|s| matches!(s, Square::Floor(_) | Square::Goal(_)));
    let walls = path(&|s| s == Square::Wall);
    let _ = writeln!(svg, r#"<path id="floor" d="{floor}" fill="{FLOOR}"/>"#);
    let _ = writeln!(
        svg,
        r#"<path id="walls" d="{walls}" fill="{WALL}" stroke="{WALL_EDGE}" stroke-width="0.04" stroke-linejoin="round"/>"#
    );
    let mut goals = String::new();
    for y in 0..scene.height {
        for x in 0..scene.width {
            if let Square::Goal(_) = scene.at(x, y) {
                let _ = write!(goals, "M{x}.5 {y}.25l0.25 0.25l-0.25 0.25l-0.25 -0.25z");
            }
        }
    }
    if !goals.is_empty() {
        let _ = writeln!(
            svg,
            r#"<path id="goals" d="{goals}" fill="none" stroke="{GOAL}" stroke-width="0.07"/>"#
        );
    }
}

/// A number with at most six decimals and no trailing zeros.
fn number(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Text escaped for XML content and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: &str = "######\n#@   #\n# $  #\n###  #\n  #. #\n  ####\n";

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"))
    }

    fn by_id<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> roxmltree::Node<'a, 'a> {
        doc.descendants().find(|n| n.attribute("id") == Some(id)).unwrap_or_else(|| panic!("no #{id}"))
    }

    #[test]
    fn animation_has_one_frame_per_move() {
        let level = Level::parse(LEVEL).expect("valid");
        let t = Timeline::from_lurd(&level, "dRurDD").expect("solves");
        let svg = animated(&level, &t, "Round <the> bend & co", 4.0);
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("data-frames"), Some("7"));
        let play = by_id(&doc, "play");
        let values: Vec<&str> = play.attribute("values").expect("values").split(';').collect();
        assert_eq!(values.len(), 7);
        assert_eq!(values[0], "1 1");
        assert_eq!(values[6], "3 3");
        assert_eq!(play.attribute("dur"), Some("1.5s"));
        // The box track: keyframes 0,1,2,4,5,6 of 6 moves, and it turns green on the goal.
        let anim =
            by_id(&doc, "box0").children().find(|n| n.has_tag_name("animateTransform")).expect("moves");
        assert_eq!(anim.attribute("keyTimes"), Some("0;0.166667;0.333333;0.666667;0.833333;1"));
        assert_eq!(anim.attribute("values"), Some("2 2;2 2;3 2;3 2;3 3;3 4"));
        let fill = by_id(&doc, "box0").children().find(|n| n.has_tag_name("animate")).expect("colour");
        assert_eq!(fill.attribute("values").map(|v| v.split(';').next_back()), Some(Some(BOX_ON_GOAL)));
        let title = "Round <the> bend & co: 6 moves, 3 pushes";
        assert!(root.descendants().any(|n| n.has_tag_name("title") && n.text() == Some(title)));
    }

    /// Every `id` once, and every `<use>` pointing at a definition outside itself: a renderer
    /// may drop an element whose id repeats, or one that refers to itself.
    fn assert_ids_sound(doc: &roxmltree::Document<'_>) {
        let mut seen = std::collections::HashSet::new();
        for id in doc.descendants().filter_map(|n| n.attribute("id")) {
            assert!(seen.insert(id), "id {id:?} twice");
        }
        for u in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let target = u.attribute("href").and_then(|h| h.strip_prefix('#')).expect("an internal href");
            assert!(seen.contains(target), "<use> of a missing #{target}");
            assert!(u.ancestors().all(|a| a.attribute("id") != Some(target)), "<use> of #{target} inside it");
        }
    }

    #[test]
    fn every_id_is_defined_once() {
        let level = Level::parse(LEVEL).expect("valid");
        let t = Timeline::from_lurd(&level, "dRurDD").expect("solves");
        assert_ids_sound(&parse(&animated(&level, &t, "moving", 4.0)));
        let solved = Level::parse("####\n#@*#\n####\n").expect("valid");
        let still_t = Timeline::from_lurd(&solved, "").expect("solved");
        assert_ids_sound(&parse(&animated(&solved, &still_t, "solved", 8.0)));
        let overlay = Overlay { dead: true, pull_dead: true, reach: true, color: true };
        assert_ids_sound(&parse(&still(level.board(), level.start(), overlay, "level 1")));
    }

    #[test]
    fn solved_level_is_a_still_picture() {
        let level = Level::parse("####\n#@*#\n####\n").expect("valid");
        let t = Timeline::from_lurd(&level, "").expect("solved");
        let svg = animated(&level, &t, "solved", 8.0);
        let doc = parse(&svg);
        assert_eq!(doc.root_element().attribute("data-frames"), Some("1"));
        assert!(!doc.descendants().any(|n| n.has_tag_name("animateTransform")));
    }

    #[test]
    fn still_picture_with_overlays() {
        let level = Level::parse(LEVEL).expect("valid");
        let overlay = Overlay { dead: true, pull_dead: true, reach: true, color: true };
        let svg = still(level.board(), level.start(), overlay, "level 1");
        let doc = parse(&svg);
        let marks = by_id(&doc, "overlay");
        let dead = marks.children().filter(|n| n.attribute("stroke") == Some(DEAD)).count();
        let reach = marks.children().filter(|n| n.attribute("fill") == Some(REACH)).count();
        let board = level.board();
        let expected_dead = (0..board.n_cells() as Cell)
            .filter(|&c| {
                board.is_push_dead(c) && c != level.start().player && !level.start().boxes.contains(&c)
            })
            .count();
        assert_eq!(dead, expected_dead);
        assert!(dead > 0);
        assert_eq!(reach, board.n_cells() - 2);
        assert_eq!(doc.descendants().filter(|n| n.attribute("href") == Some("#box")).count(), 1);
    }

    #[test]
    fn captions_wrap_to_the_board() {
        let parts: Vec<String> =
            ["Corner shop:", "green: player reach;", "red x: dead"].map(String::from).into();
        assert_eq!(caption_lines(&parts, 30), ["Corner shop: green: player reach; red x: dead"]);
        assert_eq!(caption_lines(&parts, 7), ["Corner shop:", "green: player reach;", "red x: dead"]);
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.0 / 3.0), "0.333333");
    }
}
