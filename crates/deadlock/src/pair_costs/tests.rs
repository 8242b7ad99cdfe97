use super::*;
use bisolve_board::{BoxMap, Dir, Level, Reach, NO_CELL};
use proptest::prelude::*;
use std::collections::{HashMap, VecDeque};

/// The fewest pushes that put `boxes` on goals with the player on `player`: breadth first over
/// whole positions (boxes sorted, the player's region by its smallest cell); `None` when none
/// do. For a handful of boxes on a small board only.
fn fewest_pushes(board: &Board, boxes: &[Cell], player: Cell) -> Option<u32> {
    let n = board.n_cells();
    let mut map = BoxMap::new(n);
    let mut reach = Reach::new(n);
    let mut seen: HashMap<(Vec<Cell>, Cell), ()> = HashMap::new();
    let mut start = boxes.to_vec();
    start.sort_unstable();
    let mut queue = VecDeque::from([(start, player, 0u32)]);
    while let Some((boxes, p, k)) = queue.pop_front() {
        if boxes.iter().all(|&b| board.is_goal(b)) {
            return Some(k);
        }
        map.set_all(&boxes);
        let min = reach.fill(board, &map, p);
        if seen.insert((boxes.clone(), min), ()).is_some() {
            map.clear_all(&boxes);
            continue;
        }
        for (i, &x) in boxes.iter().enumerate() {
            for d in Dir::ALL {
                let (ahead, behind) = (board.neighbour(x, d), board.neighbour(x, d.opposite()));
                if behind == NO_CELL || !reach.contains(behind) || ahead == NO_CELL || map.is_box(ahead) {
                    continue;
                }
                let mut next = boxes.clone();
                next[i] = ahead;
                next.sort_unstable();
                queue.push_back((next, x, k + 1));
            }
        }
        map.clear_all(&boxes);
    }
    None
}

/// Every pair of cells and every player cell: the table's cost is the plain search's.
fn check_costs(text: &str) {
    let level = Level::parse(text).expect("valid level");
    let board = level.board();
    let costs = PairCosts::new(board).expect("a small board gets a table");
    let n = board.n_cells() as Cell;
    let mut finite = 0;
    for a in 0..n {
        for b in a + 1..n {
            for p in (0..n).filter(|&p| p != a && p != b) {
                let expected = fewest_pushes(board, &[a, b], p);
                assert_eq!(costs.cost(a, b, p), expected, "boxes {a} {b} player {p}\n{text}");
                finite += usize::from(expected.is_some_and(|k| k > 2));
            }
        }
    }
    assert!(finite > 0, "the level should have pairs that take a few pushes\n{text}");
}

#[test]
fn costs_agree_with_a_plain_search_in_a_room_with_a_pillar() {
    check_costs("#######\n#.  $ #\n# # $ #\n#@   .#\n#######\n");
}

#[test]
fn costs_agree_with_a_plain_search_where_two_boxes_split_the_floor() {
    // A one-wide passage: two boxes in it cut the floor in two, and which side the player
    // is on decides what the pair costs.
    check_costs("########\n#.   $ #\n### ####\n#@ $  .#\n########\n");
}

#[test]
fn a_pair_in_each_others_way_costs_more_than_its_distances() {
    // Two goals at the end of a corridor: each box's distance is to the nearer goal, but
    // one of them must go on to the farther one.
    let text = "########\n#..  $ #\n#### $ #\n   #@  #\n   #####\n";
    let level = Level::parse(text).expect("valid level");
    let board = level.board();
    let costs = PairCosts::new(board).expect("a table");
    let start = level.start();
    let nearest = |c: Cell| u32::from(board.goal_distances().nearest(c));
    let mut scratch = PairScratch::default();
    let bound = costs.bound(&start.boxes, start.player, &mut scratch);
    let apart: u32 = start.boxes.iter().map(|&b| nearest(b)).sum();
    let exact = fewest_pushes(board, &start.boxes, start.player).expect("solvable");
    assert!(bound > apart, "the pair sees what the distances do not: {bound} against {apart}");
    assert!(bound <= exact, "a lower bound: {bound} against {exact}");
}

/// A random room of `w` x `h` inner squares with a few pillars, `k` boxes and `k` goals.
fn room(
    w: usize,
    h: usize,
    pillars: &[usize],
    boxes: &[usize],
    goals: &[usize],
    player: usize,
) -> Option<String> {
    let cells = w * h;
    let mut grid = vec![b' '; cells];
    for &p in pillars {
        grid[p % cells] = b'#';
    }
    let mut used = std::collections::HashSet::new();
    for &b in boxes {
        let b = b % cells;
        if grid[b] != b' ' || !used.insert(b) {
            return None;
        }
        grid[b] = b'$';
    }
    for &g in goals {
        let g = g % cells;
        grid[g] = match grid[g] {
            b' ' => b'.',
            b'$' => b'*',
            _ => return None,
        };
    }
    let p = player % cells;
    grid[p] = match grid[p] {
        b' ' => b'@',
        b'.' => b'+',
        _ => return None,
    };
    let mut text = "#".repeat(w + 2) + "\n";
    for row in grid.chunks(w) {
        text.push('#');
        text.push_str(std::str::from_utf8(row).expect("ascii"));
        text.push_str("#\n");
    }
    text.push_str(&"#".repeat(w + 2));
    text.push('\n');
    Some(text)
}

/// The bound as the module describes it, from every pair of boxes: disjoint pairs taken
/// greedily by gain (ties by the boxes' numbers), plus the distances of the boxes in none.
fn reference_bound(costs: &PairCosts, board: &Board, boxes: &[Cell], player: Cell) -> u32 {
    let near = |c: Cell| u32::from(board.goal_distances().nearest(c));
    let mut gains = Vec::new();
    for (i, &a) in boxes.iter().enumerate() {
        for (j, &b) in boxes.iter().enumerate().skip(i + 1) {
            if let Some(c) = costs.cost(a, b, player).filter(|&c| c > near(a) + near(b)) {
                gains.push((std::cmp::Reverse(c - near(a) - near(b)), i, j));
            }
        }
    }
    gains.sort_unstable();
    let mut taken = vec![false; boxes.len()];
    let mut total: u32 = boxes.iter().map(|&b| near(b)).sum();
    for (std::cmp::Reverse(gain), i, j) in gains {
        if !taken[i] && !taken[j] {
            (taken[i], taken[j]) = (true, true);
            total += gain;
        }
    }
    total
}

/// A random room's level and its table, when the room is a valid level on a board that gets one.
fn case(
    (w, h): (usize, usize),
    pillars: &[usize],
    boxes: &[usize],
    goals: &[usize],
    player: usize,
) -> Option<(String, Level, PairCosts)> {
    let text = room(w, h, pillars, boxes, goals, player)?;
    let level = Level::parse(&text).ok()?;
    let costs = PairCosts::new(level.board())?;
    Some((text, level, costs))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The bound never exceeds the fewest pushes of the whole position.
    #[test]
    fn the_bound_is_admissible(
        pillars in proptest::collection::vec(0usize..30, 0..4),
        boxes in proptest::collection::vec(0usize..30, 3),
        goals in proptest::collection::vec(0usize..30, 3),
        player in 0usize..30,
    ) {
        let Some((text, level, costs)) = case((6, 5), &pillars, &boxes, &goals, player) else { return Ok(()) };
        let (board, start) = (level.board(), level.start());
        let Some(exact) = fewest_pushes(board, &start.boxes, start.player) else { return Ok(()) };
        let bound = costs.bound(&start.boxes, start.player, &mut PairScratch::default());
        prop_assert!(bound <= exact, "bound {} over the fewest pushes {}\n{}", bound, exact, text);
    }

    /// A child's bound read from its parent's gains, and the bound of a whole position, equal
    /// the bound worked out from every pair of boxes, for the position and every push of it.
    #[test]
    fn a_childs_bound_from_its_parents_gains_is_the_fresh_bound(
        pillars in proptest::collection::vec(0usize..42, 0..6),
        boxes in proptest::collection::vec(0usize..42, 4),
        goals in proptest::collection::vec(0usize..42, 4),
        player in 0usize..42,
    ) {
        let Some((text, level, costs)) = case((7, 6), &pillars, &boxes, &goals, player) else { return Ok(()) };
        let (board, start) = (level.board(), level.start());
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let mut node = PairGains::default();
        costs.gains(&start.boxes, start.player, |c| map.box_at(c), &mut node);
        let mut reach = Reach::new(board.n_cells());
        reach.fill(board, &map, start.player);
        let mut s = PairScratch::default();
        let whole = costs.bound(&start.boxes, start.player, &mut s);
        prop_assert_eq!(whole, reference_bound(&costs, board, &start.boxes, start.player), "{}", text);
        for (i, &b) in start.boxes.iter().enumerate() {
            for d in Dir::ALL {
                let (to, behind) = (board.neighbour(b, d), board.neighbour(b, d.opposite()));
                if to == NO_CELL || behind == NO_CELL || map.is_box(to) || !reach.contains(behind) {
                    continue;
                }
                let mut child = start.boxes.clone();
                child[i] = to;
                let fresh = reference_bound(&costs, board, &child, b);
                map.shift(b, to);
                let read = costs.child_bound(&node, &start.boxes, i, to, b, |c| map.box_at(c), &mut s);
                map.shift(to, b);
                prop_assert_eq!(read, fresh, "box {} to {}\n{}", i, to, text);
            }
        }
    }
}
