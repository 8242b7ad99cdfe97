//! The positions on the paths of the fewest pushes, read back from a finished search over
//! the player's regions.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use bisolve_board::{Board, BoxMap, Dir, Fingerprint, PassThrough, Reach, NO_CELL};

use super::table::Table;

/// Positions by their fingerprint (the player's region, not square), each with the pushes
/// that reach it.
pub(super) type OnPaths = HashMap<Fingerprint, u32, BuildHasherDefault<PassThrough>>;

/// The positions on every path of `pushes` pushes from the start to a goal, with the pushes
/// from the start to each, from `table`: a search over the player's regions that has expanded
/// every position whose pushes plus bound are at most `pushes` (so each of those holds its
/// fewest pushes).
///
/// Backwards from the goals reached with `pushes` pushes: a position is on such a path when
/// one push takes it to a position on one and the table reached it with one push fewer. Every
/// position on such a path has pushes plus bound at most `pushes` (the bound is a lower
/// bound), so the search expanded it and holds it with its fewest pushes; each is found, and
/// nothing else is.
pub(super) fn on_paths(board: &Board, table: &Table, pushes: u32) -> OnPaths {
    let zobrist = board.zobrist();
    let n = board.n_cells();
    let mut map = BoxMap::new(n);
    let (mut reach, mut before) = (Reach::new(n), Reach::new(n));
    let mut on = OnPaths::default();
    let mut queue = table.goals(board, pushes);
    for &id in &queue {
        let cells = table.cells(id);
        on.insert(zobrist.fingerprint(&cells[1..], cells[0]), pushes);
    }
    while let Some(id) = queue.pop() {
        let m = table.meta(id);
        if m.pushes == 0 {
            continue;
        }
        let cells = table.cells(id);
        let (player, boxes) = (cells[0], &cells[1..]);
        let fp = zobrist.fingerprint(boxes, player) ^ zobrist.player_key(player);
        map.set_all(boxes);
        reach.fill(board, &map, player);
        for &b in boxes {
            for d in Dir::ALL {
                // Undo a push onto `b`: the box stood on `q`, the player on `r` behind it.
                let q = board.neighbour(b, d);
                if q == NO_CELL || !reach.contains(q) {
                    continue;
                }
                let r = board.neighbour(q, d);
                if r == NO_CELL || map.is_box(r) {
                    continue;
                }
                map.shift(b, q);
                let region = before.fill(board, &map, r);
                map.shift(q, b);
                let pred = fp ^ zobrist.box_key(b) ^ zobrist.box_key(q) ^ zobrist.player_key(region);
                let Some(pid) = table.id_of(pred) else { continue };
                let pm = table.meta(pid);
                if pm.pushes + 1 == m.pushes && on.insert(pred, pm.pushes).is_none() {
                    queue.push(pid);
                }
            }
        }
        map.clear_all(boxes);
    }
    on
}
