//! Static analysis on small hand-checked boards: dead squares for pushing and for pulling,
//! push and pull distances of a lone box (where the player's side matters), which sides of a
//! box the player can walk between, and tunnel flags. Then the same facts checked against a
//! brute-force search on every level of the project and the benchmark collections.

mod common;

use std::collections::{HashMap, VecDeque};

use bisolve_board::render::{render_state, Overlay};
use bisolve_board::{Board, Cell, Dir, Level, NO_CELL, TUNNEL_HORIZONTAL, TUNNEL_VERTICAL, UNREACHABLE};
use common::{cell, level};

/// A 5x3 room with one box and one goal in the middle row.
const ROOM: &str = "
#######
#     #
# $ . #
#  @  #
#######
";

/// A corridor with a dead-end pocket hanging below it.
const POCKET: &str = "
######
# @$.#
## ###
 # #
 ###
";

/// A ring corridor round a block of wall; the box starts in a nook of it.
const RING: &str = "
#######
#.    #
# ### #
# #$  #
#    @#
#######
";

/// A room whose goal lies in a nook below: some boxes must go the long way round.
const NOOK: &str = "
######
#    #
#@$  #
##  ##
 #. #
 ####
";

fn text(board: &str) -> &str {
    board.strip_prefix('\n').unwrap_or(board)
}

fn picture(level: &Level, overlay: Overlay) -> String {
    render_state(level.board(), level.start(), overlay)
}

const DEAD: Overlay = Overlay { dead: true, pull_dead: false, reach: false, color: false };
const PULL_DEAD: Overlay = Overlay { dead: false, pull_dead: true, reach: false, color: false };

#[test]
fn dead_squares_in_an_open_room_are_its_edges_for_pushing_and_none_for_pulling() {
    let level = level(text(ROOM));
    // A box against a wall with no goal along it can never leave that wall.
    assert_eq!(
        picture(&level, DEAD),
        text(
            "
#######
#xxxxx#
#x$ .x#
#xx@xx#
#######
"
        )
    );
    // Pulling, a box can be brought back to its start square from anywhere in a room.
    assert_eq!(picture(&level, PULL_DEAD), text(ROOM));
}

#[test]
fn dead_squares_in_a_pocket_differ_for_pushing_and_pulling() {
    let level = level(text(POCKET));
    // (1,1) is a corner: dead for pushing, but a box there can be pulled back east.
    // (2,2): pushed up to (2,1) the box leaves the player below it, shut in: dead for pushing.
    // Pulled, nothing leaves the pocket: the player would need to stand above the corridor.
    assert_eq!(
        picture(&level, DEAD),
        text(
            "
######
#x@$.#
##x###
 #x#
 ###
"
        )
    );
    assert_eq!(
        picture(&level, PULL_DEAD),
        text(
            "
######
# @$.#
##y###
 #y#
 ###
"
        )
    );
    let board = level.board();
    assert!(board.is_push_dead(cell(board, 1, 1)));
    assert!(!board.is_pull_dead(cell(board, 1, 1)));
    // The player's own square is not drawn with a mark, so check it by cell.
    assert!(!board.is_push_dead(cell(board, 2, 1)));
    assert!(!board.is_pull_dead(cell(board, 2, 1)));
}

#[test]
fn start_square_in_a_nook_makes_every_other_square_dead_for_pulling() {
    let level = level(text(RING));
    // Only the west side of the ring leads to the goal. The start square (3,3) has walls on two
    // sides, so no pull can ever bring a box onto it: every other square is dead for pulling.
    assert_eq!(
        picture(&level, DEAD),
        text(
            "
#######
#.   x#
# ###x#
# #$xx#
#xxxx@#
#######
"
        )
    );
    assert_eq!(
        picture(&level, PULL_DEAD),
        text(
            "
#######
#.yyyy#
#y###y#
#y#$yy#
#yyyy@#
#######
"
        )
    );
    let board = level.board();
    let start = cell(board, 3, 3);
    // The box's own square is dead for pushing too (the level is unsolvable).
    assert!(board.is_push_dead(start));
    assert!(!board.is_pull_dead(start));
    for c in 0..board.n_cells() as Cell {
        assert_eq!(board.is_pull_dead(c), c != start, "{:?}", board.xy(c));
    }
}

/// Distances from every cell, drawn as rows of digits (`.` for unreachable, `#` for non-cells).
fn distance_picture(board: &Board, dist: impl Fn(Cell) -> u16) -> String {
    let mut out = String::new();
    for y in 0..board.height() {
        let mut line = String::new();
        for x in 0..board.width() {
            line.push(match board.cell(x, y) {
                None => '#',
                Some(c) => match dist(c) {
                    UNREACHABLE => '.',
                    d => char::from_digit(u32::from(d), 36).expect("small distance"),
                },
            });
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn push_distances_in_an_open_room_follow_the_middle_row() {
    let level = level(text(ROOM));
    let board = level.board();
    assert_eq!(board.goal_distances().n_targets(), 1);
    let pic = distance_picture(board, |c| board.goal_distances().get(c, 0));
    assert_eq!(pic, "#######\n#.....#\n#.210.#\n#.....#\n#######\n");
    assert_eq!(board.goal_distances().nearest(cell(board, 2, 2)), 2);
    assert_eq!(board.goal_distances().row(cell(board, 3, 2)), [1]);
}

#[test]
fn pull_distances_in_an_open_room_reach_the_start_square_from_everywhere() {
    let level = level(text(ROOM));
    let board = level.board();
    assert_eq!(board.start_distances().n_targets(), 1);
    let pic = distance_picture(board, |c| board.start_distances().get(c, 0));
    // A box on the top wall is pulled down first, then along the middle row.
    assert_eq!(pic, "#######\n#21234#\n#10123#\n#21234#\n#######\n");
}

#[test]
fn push_distance_goes_the_long_way_round_when_the_player_side_matters() {
    let level = level(text(NOOK));
    let board = level.board();
    let pic = distance_picture(board, |c| board.goal_distances().get(c, 0));
    // From (3,3) the goal (2,4) is two steps away, but the box cannot be pushed west there (a
    // wall where the player would stand) and pushed down it is dead: it must go up, west along
    // the middle row (player east of it), then down twice: four pushes.
    assert_eq!(pic, "######\n#....#\n#.23.#\n##14##\n##0.##\n######\n");
    let from = cell(board, 3, 3);
    let goal = cell(board, 2, 4);
    assert_eq!(board.goal_distances().get(from, 0), 4);
    let walk =
        bisolve_board::moves::walk_path(board, &bisolve_board::BoxMap::new(board.n_cells()), from, goal)
            .expect("a walk");
    assert_eq!(walk.len(), 2);
    // Pull distances back to the start square (2,2).
    let pic = distance_picture(board, |c| board.start_distances().get(c, 0));
    assert_eq!(pic, "######\n#2123#\n#1012#\n##12##\n##23##\n######\n");
}

#[test]
fn distances_in_the_pocket_board() {
    let level = level(text(POCKET));
    let board = level.board();
    let push = distance_picture(board, |c| board.goal_distances().get(c, 0));
    assert_eq!(push, "######\n#.210#\n##.###\n##.###\n######\n");
    let pull = distance_picture(board, |c| board.start_distances().get(c, 0));
    assert_eq!(pull, "######\n#2101#\n##.###\n##.###\n######\n");
}

#[test]
fn distances_to_several_goals_are_kept_per_goal() {
    let level = level(text(
        "
#######
#.    #
#  $  #
#  @  #
#  $  #
#    .#
#######
",
    ));
    let board = level.board();
    // Goals are sorted by cell: top-left, then bottom-right.
    let top = cell(board, 3, 2);
    assert_eq!(board.goal_distances().row(top), [3, 5]);
    assert_eq!(board.goal_distances().nearest(top), 3);
    let bottom = cell(board, 3, 4);
    assert_eq!(board.goal_distances().row(bottom), [5, 3]);
    // Against the west wall a box only slides up and down, to the goal in its corner.
    let west = cell(board, 1, 3);
    assert_eq!(board.goal_distances().row(west), [2, UNREACHABLE]);
    assert_eq!(board.goal_distances().nearest(west), 2);
    // A box in a corner never moves: 0 to its own goal, unreachable to the other.
    let corner = board.goals()[0];
    assert_eq!(board.goal_distances().row(corner), [0, UNREACHABLE]);
    assert_eq!(board.goal_distances().nearest(cell(board, 1, 5)), UNREACHABLE);
    // Pulls back to the two start squares.
    assert_eq!(board.start_squares(), [top, bottom]);
    assert_eq!(board.start_distances().row(cell(board, 3, 3)), [1, 1]);
    assert_eq!(board.start_distances().row(corner), [3, 5]);
}

#[test]
fn sides_are_not_connected_across_a_corridor_cell() {
    let level = level(text(POCKET));
    let board = level.board();
    let corridor = cell(board, 2, 1);
    assert!(!board.sides_connected(corridor, Dir::Left, Dir::Right));
    assert!(!board.sides_connected(corridor, Dir::Left, Dir::Down));
    assert!(!board.sides_connected(corridor, Dir::Right, Dir::Down));
    // A wall side is connected to nothing, not even itself.
    assert!(!board.sides_connected(corridor, Dir::Up, Dir::Up));
    assert!(board.sides_connected(corridor, Dir::Left, Dir::Left));
}

#[test]
fn sides_are_connected_in_an_open_room() {
    let level = level(text(ROOM));
    let board = level.board();
    let middle = cell(board, 3, 2);
    for a in Dir::ALL {
        for b in Dir::ALL {
            assert!(board.sides_connected(middle, a, b), "{a} {b}");
        }
    }
    // On the edge, the wall side is out; the other three still connect.
    let edge = cell(board, 3, 1);
    assert!(board.sides_connected(edge, Dir::Left, Dir::Down));
    assert!(board.sides_connected(edge, Dir::Left, Dir::Right));
    assert!(!board.sides_connected(edge, Dir::Up, Dir::Down));
}

#[test]
fn sides_are_connected_along_a_ring_corridor() {
    let level = level(text(RING));
    let board = level.board();
    // Corridor cells of the ring: the player walks round the other way.
    assert!(board.sides_connected(cell(board, 1, 2), Dir::Up, Dir::Down));
    assert!(board.sides_connected(cell(board, 3, 1), Dir::Left, Dir::Right));
    assert!(board.sides_connected(cell(board, 5, 2), Dir::Up, Dir::Down));
    // The nook and the square east of it are part of a 2x2 block: no cut anywhere.
    assert!(board.sides_connected(cell(board, 4, 3), Dir::Left, Dir::Right));
    assert!(board.sides_connected(cell(board, 3, 3), Dir::Right, Dir::Down));
    // The same corridor shape without the ring is cut: see the pocket board.
}

#[test]
fn sides_at_the_first_cell_when_it_splits_the_board() {
    // Cell 0 is where the depth-first search starts; here it is a cut cell with two children.
    let level = level("#####\n# ..#\n# ###\n#$$@#\n#####\n");
    let board = level.board();
    let first = cell(board, 1, 1);
    assert_eq!(first, 0);
    assert!(!board.sides_connected(first, Dir::Right, Dir::Down));
    assert!(board.sides_connected(first, Dir::Down, Dir::Down));
    assert!(!board.sides_connected(cell(board, 1, 2), Dir::Up, Dir::Down));
}

#[test]
fn tunnel_flags_mark_corridor_cells() {
    let level = level(text(POCKET));
    let board = level.board();
    let flags = |x, y| board.tunnel_flags(cell(board, x, y));
    // Walls above and below.
    assert_eq!(flags(1, 1), TUNNEL_HORIZONTAL);
    assert_eq!(flags(3, 1), TUNNEL_HORIZONTAL);
    assert_eq!(flags(4, 1), TUNNEL_HORIZONTAL);
    // (2,1) opens downwards: walls above only.
    assert_eq!(flags(2, 1), 0);
    // Walls left and right.
    assert_eq!(flags(2, 2), TUNNEL_VERTICAL);
    assert_eq!(flags(2, 3), TUNNEL_VERTICAL);
    let room = common::level(text(ROOM));
    let board = room.board();
    for c in 0..board.n_cells() as Cell {
        assert_eq!(board.tunnel_flags(c), 0, "{:?}", board.xy(c));
    }
}

// ---------------------------------------------------------------------------------------------
// Brute force: the same facts from plain searches over a lone box and the player's region.

/// The board as the brute force sees it: the cells, minus `walls` (extra blocked cells), with
/// the player's regions around a lone box on each cell worked out once by flood fills.
struct Grid<'a> {
    board: &'a Board,
    walls: Vec<bool>,
    /// `label[b][p]`: the smallest cell of the player's region from `p` with a lone box on
    /// `b`, or `NO_CELL` where the player cannot stand.
    label: Vec<Vec<Cell>>,
}

impl<'a> Grid<'a> {
    fn new(board: &'a Board, walls: &[Cell]) -> Grid<'a> {
        let n = board.n_cells();
        let mut w = vec![false; n];
        for &c in walls {
            w[c as usize] = true;
        }
        let mut grid = Grid { board, walls: w, label: Vec::new() };
        grid.label = (0..n as Cell).map(|b| grid.regions(b)).collect();
        grid
    }

    /// The neighbour in `dir`, or `NO_CELL` for a wall or an extra wall.
    fn step(&self, c: Cell, dir: Dir) -> Cell {
        let n = self.board.neighbour(c, dir);
        if n == NO_CELL || self.walls[n as usize] {
            NO_CELL
        } else {
            n
        }
    }

    /// Labels every cell by the smallest cell of its region, with a lone box on `box_cell`.
    fn regions(&self, box_cell: Cell) -> Vec<Cell> {
        let n = self.board.n_cells();
        let mut label = vec![NO_CELL; n];
        for first in 0..n as Cell {
            if first == box_cell || self.walls[first as usize] || label[first as usize] != NO_CELL {
                continue;
            }
            // Cells are visited in increasing order, so `first` is its region's smallest cell.
            label[first as usize] = first;
            let mut stack = vec![first];
            while let Some(c) = stack.pop() {
                for d in Dir::ALL {
                    let m = self.step(c, d);
                    if m != NO_CELL && m != box_cell && label[m as usize] == NO_CELL {
                        label[m as usize] = first;
                        stack.push(m);
                    }
                }
            }
        }
        label
    }

    /// Fewest pushes (or pulls) to bring a lone box from `box_cell`, with the player on
    /// `player`, to each cell: a breadth-first search over (box, player region) states.
    fn lone_box_search(&self, box_cell: Cell, player: Cell, pulls: bool) -> Vec<u16> {
        let mut best = vec![UNREACHABLE; self.board.n_cells()];
        let mut seen: HashMap<(Cell, Cell), u16> = HashMap::new();
        let mut queue = VecDeque::new();
        let start = (box_cell, self.label[box_cell as usize][player as usize]);
        seen.insert(start, 0);
        queue.push_back(start);
        while let Some((b, region)) = queue.pop_front() {
            let d = seen[&(b, region)];
            best[b as usize] = best[b as usize].min(d);
            let label = &self.label[b as usize];
            for dir in Dir::ALL {
                let (stand, to, player_after) = if pulls {
                    // The player stands on the box's `dir` side and steps further that way.
                    let stand = self.step(b, dir);
                    let beyond = if stand == NO_CELL { NO_CELL } else { self.step(stand, dir) };
                    (stand, if beyond == NO_CELL { NO_CELL } else { stand }, beyond)
                } else {
                    // The player stands behind the box and pushes it `dir`.
                    (self.step(b, dir.opposite()), self.step(b, dir), b)
                };
                if stand == NO_CELL || to == NO_CELL || label[stand as usize] != region {
                    continue;
                }
                let key = (to, self.label[to as usize][player_after as usize]);
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(key) {
                    e.insert(d + 1);
                    queue.push_back(key);
                }
            }
        }
        best
    }

    /// Fewest pushes (pulls) from each cell to each target, over every player start.
    fn distances(&self, targets: &[Cell], pulls: bool) -> Vec<Vec<u16>> {
        let n = self.board.n_cells();
        let mut out = vec![vec![UNREACHABLE; targets.len()]; n];
        for c in 0..n as Cell {
            if self.walls[c as usize] {
                continue;
            }
            // A box on its target needs no move, even where the player cannot get next to it.
            for (t, &target) in targets.iter().enumerate() {
                if target == c {
                    out[c as usize][t] = 0;
                }
            }
            for d in Dir::ALL {
                let p = self.step(c, d);
                if p == NO_CELL {
                    continue;
                }
                let found = self.lone_box_search(c, p, pulls);
                for (t, &target) in targets.iter().enumerate() {
                    out[c as usize][t] = out[c as usize][t].min(found[target as usize]);
                }
            }
        }
        out
    }
}

/// Checks goal and start distances, dead squares, side connections and push options of one
/// level against the brute-force searches.
fn check_against_brute_force(name: &str, board: &Board) {
    let grid = Grid::new(board, &[]);
    let to_goal = grid.distances(board.goals(), false);
    let to_start = grid.distances(board.start_squares(), true);
    for c in 0..board.n_cells() as Cell {
        let xy = board.xy(c);
        assert_eq!(board.goal_distances().row(c), to_goal[c as usize], "{name}: push {xy:?}");
        assert_eq!(board.start_distances().row(c), to_start[c as usize], "{name}: pull {xy:?}");
        let nearest = to_goal[c as usize].iter().copied().min().unwrap_or(UNREACHABLE);
        assert_eq!(board.goal_distances().nearest(c), nearest, "{name}: nearest {xy:?}");
        let push_dead = to_goal[c as usize].iter().all(|&d| d == UNREACHABLE);
        let pull_dead = to_start[c as usize].iter().all(|&d| d == UNREACHABLE);
        assert_eq!(board.is_push_dead(c), push_dead, "{name}: push-dead {xy:?}");
        assert_eq!(board.is_pull_dead(c), pull_dead, "{name}: pull-dead {xy:?}");
    }
    check_sides(name, board);
}

/// Checks `goal_distances_with_frozen` for some frozen sets of goal cells: the frozen cells
/// are walls for the other boxes and the player, each frozen goal costs 0 from its own cell
/// and nothing else reaches it.
fn check_frozen_against_brute_force(name: &str, board: &Board) {
    let goals = board.goals();
    let mut sets: Vec<Vec<Cell>> = goals.iter().map(|&g| vec![g]).collect();
    if goals.len() >= 2 {
        sets.push(vec![goals[0], goals[goals.len() - 1]]);
    }
    for frozen in sets {
        let table = board.goal_distances_with_frozen(&frozen);
        assert_eq!(table.n_targets(), goals.len());
        let grid = Grid::new(board, &frozen);
        let free: Vec<Cell> = goals.iter().copied().filter(|g| !frozen.contains(g)).collect();
        let brute = grid.distances(&free, false);
        for c in 0..board.n_cells() as Cell {
            let mut want = Vec::new();
            let mut k = 0;
            for &g in goals {
                if frozen.contains(&g) {
                    want.push(if c == g { 0 } else { UNREACHABLE });
                } else {
                    want.push(if frozen.contains(&c) { UNREACHABLE } else { brute[c as usize][k] });
                    k += 1;
                }
            }
            assert_eq!(table.row(c), want, "{name}: frozen {frozen:?}, cell {:?}", board.xy(c));
            let nearest = want.iter().copied().min().unwrap_or(UNREACHABLE);
            assert_eq!(table.nearest(c), nearest, "{name}: frozen {frozen:?}, cell {:?}", board.xy(c));
        }
    }
}

/// Checks `sides_connected` and `push_options` for every cell and pair of sides by searches
/// that avoid the cell.
fn check_sides(name: &str, board: &Board) {
    for c in 0..board.n_cells() as Cell {
        for a in Dir::ALL {
            let from = board.neighbour(c, a);
            let mut options = 0u8;
            for b in Dir::ALL {
                let to = board.neighbour(c, b);
                let want = from != NO_CELL && to != NO_CELL && region_contains(board, c, from, to);
                assert_eq!(board.sides_connected(c, a, b), want, "{name}: {:?} {a} {b}", board.xy(c));
                // From side `a`, a push towards `b.opposite()` needs the player on side `b` and
                // floor ahead.
                let ahead = board.neighbour(c, b.opposite());
                if want && ahead != NO_CELL {
                    options |= 1 << b.opposite().index();
                }
            }
            assert_eq!(board.push_options(c, a), options, "{name}: push options {:?} {a}", board.xy(c));
        }
    }
}

fn region_contains(board: &Board, blocked: Cell, from: Cell, to: Cell) -> bool {
    let mut seen = vec![false; board.n_cells()];
    let mut stack = vec![from];
    seen[from as usize] = true;
    while let Some(c) = stack.pop() {
        if c == to {
            return true;
        }
        for &n in board.neighbours(c) {
            if n != NO_CELL && n != blocked && !seen[n as usize] {
                seen[n as usize] = true;
                stack.push(n);
            }
        }
    }
    false
}

#[test]
fn hand_boards_match_the_brute_force() {
    for (name, board) in [("room", ROOM), ("pocket", POCKET), ("ring", RING), ("nook", NOOK)] {
        let level = level(text(board));
        check_against_brute_force(name, level.board());
    }
}

#[test]
fn repo_levels_match_the_brute_force() {
    let levels = common::all_repo_valid_levels();
    assert!(levels.len() > 40);
    for (name, level) in &levels {
        check_against_brute_force(name, level.board());
    }
}

#[test]
fn frozen_goal_distances_match_the_brute_force() {
    for (name, board) in [("room", ROOM), ("pocket", POCKET), ("ring", RING), ("nook", NOOK)] {
        let level = level(text(board));
        check_frozen_against_brute_force(name, level.board());
    }
    for (name, level) in &common::all_repo_valid_levels() {
        if level.board().n_cells() <= 40 {
            check_frozen_against_brute_force(name, level.board());
        }
    }
}

#[test]
fn frozen_goal_in_a_corridor_cuts_the_way_to_the_goal_behind_it() {
    // Two goals in a dead-end corridor: with the near one frozen, the far one is unreachable.
    let level = level("########\n#@ $$..#\n########\n");
    let board = level.board();
    let (near, far) = (cell(board, 5, 1), cell(board, 6, 1));
    assert_eq!(board.goals(), [near, far]);
    let plain = board.goal_distances();
    assert_eq!(plain.row(cell(board, 3, 1)), [2, 3]);
    let table = board.goal_distances_with_frozen(&[near]);
    assert_eq!(table.row(cell(board, 3, 1)), [UNREACHABLE, UNREACHABLE]);
    assert_eq!(table.row(near), [0, UNREACHABLE]);
    let table = board.goal_distances_with_frozen(&[far]);
    assert_eq!(table.row(cell(board, 3, 1)), [2, UNREACHABLE]);
    assert_eq!(table.row(far), [UNREACHABLE, 0]);
    // No frozen box: the plain distances.
    let table = board.goal_distances_with_frozen(&[]);
    for c in 0..board.n_cells() as Cell {
        assert_eq!(table.row(c), plain.row(c));
    }
}

#[test]
fn push_options_in_a_corridor_and_in_a_room() {
    let level = level(text(POCKET));
    let board = level.board();
    let bit = |d: Dir| 1u8 << d.index();
    // (3,1) in the corridor: from the west the player can only push east, and vice versa.
    let c = cell(board, 3, 1);
    assert_eq!(board.push_options(c, Dir::Left), bit(Dir::Right));
    assert_eq!(board.push_options(c, Dir::Right), bit(Dir::Left));
    assert_eq!(board.push_options(c, Dir::Up), 0);
    // (2,1) above the pocket: from below the player can only push up, into the wall: nothing.
    assert_eq!(board.push_options(cell(board, 2, 1), Dir::Down), 0);
    let room = common::level(text(ROOM));
    let board = room.board();
    let all = bit(Dir::Up) | bit(Dir::Right) | bit(Dir::Down) | bit(Dir::Left);
    assert_eq!(board.push_options(cell(board, 3, 2), Dir::Up), all);
    // Against the top wall: sideways only.
    assert_eq!(board.push_options(cell(board, 3, 1), Dir::Down), bit(Dir::Left) | bit(Dir::Right));
}

#[test]
fn microban_levels_match_the_brute_force() {
    let Some(dir) = common::shared_levels() else { return };
    let c = common::load(&dir.join("microban.xsb"));
    let mut checked = 0;
    for e in &c.entries {
        let level = e.level.as_ref().expect("microban levels are valid");
        // The brute force is cubic in the cells; the small levels are plenty.
        if level.board().n_cells() <= 40 {
            check_against_brute_force(&format!("microban {}", e.index), level.board());
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} small levels");
}

#[test]
fn shared_levels_sides_match_the_brute_force() {
    let Some(dir) = common::shared_levels() else { return };
    for name in ["microban.xsb", "microban2.xsb", "sasquatch.xsb", "xsokoban-1-45.xsb"] {
        let c = common::load(&dir.join(name));
        for e in &c.entries {
            let level = e.level.as_ref().expect("valid");
            check_sides(&format!("{name} {}", e.index), level.board());
        }
    }
}
