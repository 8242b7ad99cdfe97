//! The forward search as the engine sees it: [`Expander`] for [`Forward`].

use super::*;

impl Expander for Forward<'_> {
    type Scratch = PushScratch;

    fn side(&self) -> Side {
        Side::Forward
    }

    fn new_scratch(&self) -> PushScratch {
        let n = self.board.n_cells();
        PushScratch {
            boxes: BoxMap::new(n),
            reach: Reach::new(n),
            child_reach: Reach::new(n),
            areas: Areas::new(n),
            bound: LowerBound::new(self.config.bound),
            freeze: FreezeCheck::default(),
            tables: FrozenTables::default(),
            corral: CorralCheck::new(n),
            corral_search: CorralDeadlocks::new(n),
            shut_in: ShutInCheck::new(n),
            light: false,
            checks: TestCaches::new(self.board, PairMode::Push, self.config.goal_areas),
            frozen: Vec::new(),
            child_frozen: Vec::new(),
            fresh: LowerBound::new(self.config.bound),
            child_boxes: Vec::new(),
            runs: BoxRuns::new(n),
            runs_skipped: 0,
            run_pushes: 0,
            pruned_dead: 0,
            pruned_freeze: 0,
            pruned_diagonals: 0,
            pruned_bound: 0,
            pruned_forced: 0,
            pruned_frozen_goals: 0,
            pruned_corral: 0,
            corral_dead: 0,
            macros: 0,
            packing_macros: 0,
            goal_cuts: 0,
            pruned_discipline: 0,
            pruned_plan: 0,
            links: LinkScratch::default(),
            pairs: PairScratch::default(),
            pair_gains: PairGains::default(),
            hot_counts: Vec::new(),
        }
    }

    fn roots(&self, s: &mut PushScratch) -> Vec<Root> {
        let board = self.board;
        let boxes = &self.start.boxes;
        if self.config.dead_squares && boxes.iter().any(|&b| board.is_push_dead(b)) {
            return Vec::new();
        }
        s.boxes.set_all(boxes);
        let player = s.reach.fill(board, &s.boxes, self.start.player);
        let frozen = self.config.freeze && boxes.iter().any(|&b| s.freeze.is_deadlock(board, &s.boxes, b));
        s.boxes.clear_all(boxes);
        if frozen {
            return Vec::new();
        }
        let Some(h) = s.bound.prepare(board.goal_distances(), boxes) else {
            return Vec::new();
        };
        let h = self.with_pairs(s, h, boxes, None, player);
        let cell = if self.config.features {
            s.boxes.set_all(boxes);
            let areas = s.areas.label(board, boxes);
            let cell = self.feature_cell(s, boxes, areas);
            s.boxes.clear_all(boxes);
            cell
        } else {
            0
        };
        let state = State::new(boxes.clone(), player);
        let fp = board.zobrist().fingerprint(&state.boxes, player);
        vec![Root { state, fp, h, cell }]
    }

    fn is_goal(&self, _s: &mut PushScratch, node: NodeRef<'_>) -> bool {
        node.boxes.iter().all(|&b| self.board.is_goal(b))
    }

    fn expand(&self, s: &mut PushScratch, node: NodeRef<'_>, out: &mut Vec<Child>) {
        let board = self.board;
        s.boxes.set_all(node.boxes);
        // With feature cells the labels say where the player can walk: no fill.
        let region_min = if self.config.features {
            s.areas.label(board, node.boxes);
            let region_min = s.reach.adopt(&s.areas, node.player);
            // Debug builds fill too (into the children's scratch fill, refilled per child).
            debug_assert!({
                let fill = &mut s.child_reach;
                fill.fill(board, &s.boxes, node.player) == region_min
                    && (0..board.n_cells() as Cell).all(|c| fill.contains(c) == s.reach.contains(c))
            });
            region_min
        } else {
            s.reach.fill(board, &s.boxes, node.player)
        };
        if self.config.shut_in
            && !s.light
            && s.shut_in.is_dead(board, node.boxes, &s.boxes, &s.reach, region_min)
        {
            s.boxes.clear_all(node.boxes);
            return;
        }
        let table = self.table_for(s, node.boxes);
        if s.bound.prepare(table.as_deref().unwrap_or(board.goal_distances()), node.boxes).is_none() {
            // Only a root or a state found before a configuration change can get here.
            s.boxes.clear_all(node.boxes);
            return;
        }
        if let Some(costs) = &self.pair_costs {
            let map = &s.boxes;
            costs.gains(node.boxes, node.player, |c| map.box_at(c), &mut s.pair_gains);
        }
        let ctx = Context {
            region_min,
            plan_keys: self.plan_rooms().map_or([0; MAX_PLAN_ROOMS], |r| r.plan_keys(node.boxes)),
            off_goal: node.boxes.iter().filter(|&&b| !board.is_goal(b)).count(),
            base: node.fp ^ board.zobrist().player_key(node.player),
            table,
        };
        if self.config.features {
            // What the children's counts start from (`RoomLinks::cut_child`).
            self.links.cut_parent(&s.boxes, &mut s.links);
        }
        self.hotspots.blocked_counts(node.boxes, &mut s.hot_counts);
        let forced =
            if self.config.tunnels { forced_box(board, &s.boxes, node.boxes, &s.reach) } else { Forced::No };
        match forced {
            Forced::No => {
                let corral = if self.config.corrals {
                    s.corral.find(board, &s.boxes, node.boxes, &s.reach)
                } else {
                    Corral::None
                };
                match corral {
                    Corral::None => {
                        for i in 0..node.boxes.len() {
                            self.move_box(s, node, &ctx, i, ALL_DIRS, out);
                        }
                    }
                    Corral::Only(pushes) => {
                        s.pruned_corral += 1;
                        if self.config.corral_deadlocks && self.corral_is_dead(s, node) {
                            s.boxes.clear_all(node.boxes);
                            return;
                        }
                        if self.config.box_moves {
                            // One run per box, from every first push the corral allows it.
                            let mut pushes = pushes;
                            pushes.sort_unstable_by_key(|&(i, _)| i);
                            for run in pushes.chunk_by(|a, b| a.0 == b.0) {
                                let dirs = run.iter().fold(0, |m, &(_, d)| m | 1 << d.index());
                                self.move_box(s, node, &ctx, run[0].0, dirs, out);
                            }
                        } else {
                            for (i, dir) in pushes {
                                self.push_box(s, node, &ctx, i, Some(dir), out);
                            }
                        }
                    }
                    Corral::Dead => s.corral_dead += 1,
                }
            }
            Forced::Box(i, dir) => {
                s.pruned_forced += 1;
                self.move_box(s, node, &ctx, i, 1 << dir.index(), out);
            }
            Forced::Stuck => s.pruned_forced += 1,
        }
        if self.opener.is_some() || self.imagine.is_some() {
            let base = FeatureCell::unpack(self.feature_cell(s, node.boxes, s.areas.count()));
            if let (Some(opener), Some(plan)) = (&self.opener, &self.plan) {
                opener.mark(board, plan, (node.boxes, |c| s.boxes.is_box(c)), base, out);
            }
            if let (Some(imagine), Some(plan)) = (&self.imagine, &self.plan) {
                imagine.mark(plan.steps().len(), node.boxes, base, out);
            }
        }
        s.boxes.clear_all(node.boxes);
        // The cut keeps the macros that start with a push from the node: a macro at the end
        // of a run of box moves is recorded as a move from the run's position before it,
        // which must stay among the children for the macro's parent to be on record.
        let first_macro = |c: &Child| c.is_macro && c.steps == 1;
        if self.config.goal_cut && self.goal_rooms().is_some() && out.iter().any(first_macro) {
            s.goal_cuts += 1;
            out.retain(first_macro);
        }
    }

    fn complete(&self) -> bool {
        !(self.config.goal_cut && self.goal_rooms().is_some())
    }

    fn parent(&self, state: &State, mv: PackedMove) -> Option<State> {
        let back = mv.dir().opposite();
        let to = mv.to();
        if mv.is_root() || state.boxes.binary_search(&to).is_err() {
            return None;
        }
        if mv.is_macro() {
            // The box came from next to the room's entrance or the way's start, the player
            // behind it.
            let (_, from, player) = self.macro_of(mv)?;
            if [from, player].iter().any(|c| state.boxes.binary_search(c).is_ok()) {
                return None;
            }
            let mut parent = state.clone();
            parent.move_box(to, from, player);
            return Some(parent);
        }
        let from = self.board.neighbour(to, back);
        if from == NO_CELL || state.boxes.binary_search(&from).is_ok() {
            return None;
        }
        let player = self.board.neighbour(from, back);
        if player == NO_CELL || state.boxes.binary_search(&player).is_ok() {
            return None;
        }
        let mut parent = state.clone();
        parent.move_box(to, from, player);
        Some(parent)
    }

    fn as_pushes(&self, mv: PackedMove, out: &mut Vec<Push>) {
        if mv.is_macro() {
            if let Some((way, from, _)) = self.macro_of(mv) {
                match way {
                    MacroWay::Room(room, j, e) => {
                        out.push(Push { from, dir: mv.dir() });
                        room.path_pushes(self.board, j, e, out);
                    }
                    MacroWay::FromEntrance(room, j) => room.path_pushes(self.board, j, 0, out),
                    MacroWay::Packing(start, dirs) => {
                        out.push(Push { from, dir: mv.dir() });
                        pushes_along(self.board, start, dirs, out);
                    }
                }
                return;
            }
        }
        out.push(Push { from: self.board.neighbour(mv.to(), mv.dir().opposite()), dir: mv.dir() });
    }

    /// Bridges leave out the shut-in test. Where nearly every position has a box the player
    /// cannot reach, the test costs up to a quarter more per expansion, and the bridges and
    /// the perimeter are short searches whose worth is their reach in a few seconds; the main
    /// search keeps the test, so nothing it prunes goes unpruned for long.
    fn set_light(&self, s: &mut PushScratch, light: bool) {
        s.light = light;
    }

    fn node_cell(&self, s: &mut PushScratch, boxes: &[Cell]) -> u32 {
        if !self.config.features {
            return 0;
        }
        // The expansion left the node's labels in place: its area count.
        let areas = s.areas.count();
        s.boxes.set_all(boxes);
        let cell = self.feature_cell(s, boxes, areas);
        s.boxes.clear_all(boxes);
        cell
    }

    fn prune_counts(&self, s: &PushScratch) -> Vec<PruneCount> {
        let c = &s.checks;
        let areas = |count: fn(&AreaCheck) -> u64| c.goal_areas.as_ref().map_or(0, count);
        vec![
            ("dead squares", s.pruned_dead),
            ("freeze", s.pruned_freeze),
            ("closed diagonal", s.pruned_diagonals),
            ("bound", s.pruned_bound),
            ("tunnel (forced box)", s.pruned_forced),
            ("frozen goals", s.pruned_frozen_goals),
            ("frozen goal tables", s.tables.built()),
            ("PI-corral (restricted expansions)", s.pruned_corral),
            ("corral deadlock", s.corral_dead),
            ("corral search deadlock", s.corral_search.proved),
            ("corral searches", s.corral_search.searches),
            ("shut-in deadlock", s.shut_in.proved),
            ("shut-in searches", s.shut_in.searches),
            ("shut-in searches given up", s.shut_in.gave_up),
            ("shut-in zones opened by one push", s.shut_in.opened),
            ("shut-in checks", s.shut_in.checks),
            ("pair deadlock", c.pruned_pairs),
            ("triple deadlock", c.pruned_triples),
            ("sealed goal deadlock", c.sealed.proved),
            ("sealed goal searches", c.sealed.searches),
            ("sealed goal searches given up", c.sealed.gave_up),
            ("sealed goal checks", c.sealed.checks),
            ("jam deadlock", c.jams.proved),
            ("jam searches", c.jams.searches),
            ("jam searches given up", c.jams.gave_up),
            ("jam checks", c.jams.checks),
            (
                "frozen wall searches",
                s.corral_search.fixed_searches + c.sealed.fixed_searches + c.jams.fixed_searches,
            ),
            ("goal area deadlock", areas(|a| a.proved)),
            ("goal area searches", areas(|a| a.searches)),
            ("goal area searches given up", areas(|a| a.gave_up)),
            ("goal area checks", areas(|a| a.checks)),
            ("goal macros", s.macros),
            ("packing macros", s.packing_macros),
            ("goal cut (restricted expansions)", s.goal_cuts),
            ("room discipline", s.pruned_discipline),
            ("room plan", s.pruned_plan),
            ("box moves past the first push", s.run_pushes),
            ("box moves left to the run before (moved last)", s.runs_skipped),
        ]
    }
}
