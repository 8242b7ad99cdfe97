//! Static analysis, run once per level: which sides of a box the player can walk between,
//! box distances to goals (pushes) and to start squares (pulls), and tunnel cells.

use std::collections::VecDeque;

use crate::cell::{Cell, DistanceTable, NO_CELL, UNREACHABLE};
use crate::dir::Dir;

/// For one cell: which of its four sides a player can walk between when a lone box stands on
/// the cell. Sides with the same label are connected; `NO_SIDE` marks a wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SideComponents([u8; 4]);

const NO_SIDE: u8 = u8::MAX;

impl SideComponents {
    #[inline]
    pub(crate) fn connected(self, a: Dir, b: Dir) -> bool {
        let (la, lb) = (self.0[a.index()], self.0[b.index()]);
        la != NO_SIDE && la == lb
    }
}

/// Labels, for every cell, the components of its neighbours in the floor graph with that cell
/// removed. One iterative depth-first search (Tarjan's articulation points) does all cells in
/// linear time: a neighbour inside a child subtree that cannot reach above the cell is cut off
/// from the rest; everything else stays connected through the cell's parent.
pub(crate) fn side_components(neighbours: &[[Cell; 4]]) -> Vec<SideComponents> {
    let n = neighbours.len();
    const UNSEEN: u32 = u32::MAX;
    let mut disc = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut size = vec![1u32; n];
    let mut parent = vec![NO_CELL; n];
    let mut time = 0u32;
    // Each root starts its own tree: the floor graph is connected for validated levels, but
    // the analysis must not depend on it.
    for root in 0..n {
        if disc[root] != UNSEEN {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        disc[root] = time;
        low[root] = time;
        time += 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next < 4 {
                let d = *next;
                *next += 1;
                let w = neighbours[v][d];
                if w == NO_CELL {
                    continue;
                }
                let w = w as usize;
                if disc[w] == UNSEEN {
                    parent[w] = v as Cell;
                    disc[w] = time;
                    low[w] = time;
                    time += 1;
                    stack.push((w, 0));
                } else if parent[v] as usize != w {
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                stack.pop();
                let p = parent[v];
                if p != NO_CELL {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                    size[p] += size[v];
                }
            }
        }
    }
    // Which child subtree of `c` holds the descendant `u`? The child whose discovery interval
    // contains disc[u]; a cell has at most four children, so a scan is enough.
    (0..n)
        .map(|c| {
            let mut labels = [NO_SIDE; 4];
            let children: Vec<usize> = neighbours[c]
                .iter()
                .filter(|&&w| w != NO_CELL && parent[w as usize] as usize == c)
                .map(|&w| w as usize)
                .collect();
            let is_root = parent[c] == NO_CELL;
            for d in 0..4 {
                let u = neighbours[c][d];
                if u == NO_CELL {
                    continue;
                }
                let u = u as usize;
                let in_subtree = |w: usize| disc[u] >= disc[w] && disc[u] < disc[w] + size[w];
                let label = match children.iter().position(|&w| in_subtree(w)) {
                    // Cut off from the parent's side: its own component, named by the child.
                    Some(k) if is_root || low[children[k]] >= disc[c] => k as u8,
                    // Above the cell, or in a subtree that climbs above it.
                    _ => 4,
                };
                labels[d] = label;
            }
            SideComponents(labels)
        })
        .collect()
}

/// Distances of a lone box from every cell to each target, by a 0-1 breadth-first search over
/// (box cell, player side) pairs that starts at the targets and runs the moves backwards.
///
/// With `to_goals`, the moves are pushes (the box goes from a cell to a goal) and the search
/// pulls away from the goals; otherwise the moves are pulls (the box goes back to a start
/// square) and the search pushes away from the start squares. Walking from one side of the box
/// to another costs nothing when [`side_components`] says the sides are connected.
pub(crate) fn box_distances(
    neighbours: &[[Cell; 4]],
    sides: &[SideComponents],
    targets: &[Cell],
    to_goals: bool,
) -> DistanceTable {
    let n = neighbours.len();
    let t = targets.len();
    let mut data = vec![UNREACHABLE; n * t];
    let mut dist = vec![UNREACHABLE; n * 4];
    let mut queue: VecDeque<(usize, usize)> = VecDeque::new();
    for (ti, &target) in targets.iter().enumerate() {
        dist.fill(UNREACHABLE);
        queue.clear();
        let target = target as usize;
        data[target * t + ti] = 0;
        for s in 0..4 {
            if neighbours[target][s] != NO_CELL {
                dist[target * 4 + s] = 0;
                queue.push_back((target, s));
            }
        }
        while let Some((c, s)) = queue.pop_front() {
            let d = dist[c * 4 + s];
            // Free side changes first (0-1 BFS: they go to the front).
            for s2 in 0..4 {
                if s2 != s
                    && sides[c].connected(Dir::from_index(s), Dir::from_index(s2))
                    && dist[c * 4 + s2] > d
                {
                    dist[c * 4 + s2] = d;
                    queue.push_front((c, s2));
                }
            }
            // The backward move costs one. The player stands on side `s` of the box.
            let player = neighbours[c][s];
            let next = if to_goals {
                // Undo a push: the box came from the player's cell, the player from beyond.
                if neighbours[player as usize][s] == NO_CELL {
                    continue;
                }
                player as usize
            } else {
                // Undo a pull: the box came from the far side of the cell.
                let from = neighbours[c][Dir::from_index(s).opposite().index()];
                if from == NO_CELL {
                    continue;
                }
                from as usize
            };
            if dist[next * 4 + s] > d + 1 {
                dist[next * 4 + s] = d + 1;
                queue.push_back((next, s));
            }
        }
        for c in 0..n {
            let best = dist[c * 4..c * 4 + 4].iter().copied().min().unwrap_or(UNREACHABLE);
            let slot = &mut data[c * t + ti];
            *slot = (*slot).min(best);
        }
    }
    DistanceTable::new(t, n, data)
}

/// For every cell and player side, the push directions available to a player on that side of a
/// lone box on the cell (see [`crate::Board::push_options`]).
pub(crate) fn push_options(neighbours: &[[Cell; 4]], sides: &[SideComponents]) -> Vec<[u8; 4]> {
    neighbours
        .iter()
        .zip(sides)
        .map(|(nb, comp)| {
            let mut options = [0u8; 4];
            for side in Dir::ALL {
                if nb[side.index()] == NO_CELL {
                    continue;
                }
                for push in Dir::ALL {
                    let behind = push.opposite();
                    if nb[push.index()] != NO_CELL && (behind == side || comp.connected(side, behind)) {
                        options[side.index()] |= 1 << push.index();
                    }
                }
            }
            options
        })
        .collect()
}

/// Tunnel bits per cell: walls on both horizontal sides make a vertical corridor cell, walls
/// above and below a horizontal one.
pub(crate) fn tunnel_flags(neighbours: &[[Cell; 4]]) -> Vec<u8> {
    use crate::cell::{TUNNEL_HORIZONTAL, TUNNEL_VERTICAL};
    neighbours
        .iter()
        .map(|nb| {
            let wall = |d: Dir| nb[d.index()] == NO_CELL;
            let mut flags = 0;
            if wall(Dir::Left) && wall(Dir::Right) {
                flags |= TUNNEL_VERTICAL;
            }
            if wall(Dir::Up) && wall(Dir::Down) {
                flags |= TUNNEL_HORIZONTAL;
            }
            flags
        })
        .collect()
}
