//! The switches of [`SolverOptions`](super::SolverOptions): each an override that, when set,
//! holds for every member of a portfolio (or the one strategy), and when unset leaves each
//! member its own value.

use serde::{Deserialize, Serialize};

use bisolve_deadlock::bound::BoundKind;
use bisolve_pull::PullConfig;
use bisolve_push::PushConfig;

use crate::strategy::Strategy;

/// Declares a table of switches over the fields of a configuration type: the struct (every
/// field an `Option`), `apply`, `resolve` and the list of names.
macro_rules! switches {
    (
        $(#[$doc:meta])*
        $name:ident for $config:ty {
            $( $(#[$fdoc:meta])* $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(
                $(#[$fdoc])*
                #[serde(skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl $name {
            /// The switches' names, as keys of the options.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// The names of the switches not set here.
            pub fn unset(&self) -> Vec<&'static str> {
                let mut names = Vec::new();
                $( if self.$field.is_none() { names.push(stringify!($field)); } )*
                names
            }

            /// Sets every switch set here on `config`.
            pub fn apply(&self, config: &mut $config) {
                $( if let Some(v) = self.$field { config.$field = v; } )*
            }

            /// Sets each unset switch to the value every one of `configs` has, where they agree,
            /// so the options show what will run.
            pub fn resolve<'c>(&mut self, configs: impl Iterator<Item = &'c $config> + Clone) {
                $(
                    if self.$field.is_none() {
                        let mut values = configs.clone().map(|c| c.$field);
                        if let Some(first) = values.next() {
                            if values.all(|v| v == first) {
                                self.$field = Some(first);
                            }
                        }
                    }
                )*
            }
        }
    };
}

switches! {
    /// Switches of the searches' behaviour outside their moves (`search.*`).
    SearchSwitches for Strategy {
        /// Ties go to pushing the box the last move pushed.
        inertia: bool,
        /// Forward searches run bridges towards the backward search's closest state.
        bridges: bool,
        /// The bridges' one larger search round the start.
        perimeter: bool,
        /// Bridges aim only at backward states not proved out of the start's reach.
        live_targets: bool,
        /// Backward searches run bridges towards the forward search's closest state.
        backward_bridges: bool,
        /// Feature cells by the best cell on the path.
        best_past: bool,
        /// Expansions not in turn take the best cell's best node.
        best_cell: bool,
        /// A cell seen for the first time takes the next turn.
        new_cells_first: bool,
        /// Inside a cell, the fewest unadvised moves first (FESS's weights).
        advisors: bool,
        /// Room links and hotspots split the feature cells (off: only the advisors read them).
        link_cells: bool,
        /// The packing advisor (a move that places a box).
        advise_packing: bool,
        /// The connectivity advisor (a move that joins areas).
        advise_connectivity: bool,
        /// The room-connectivity advisor (a move that reopens a link between rooms).
        advise_room_links: bool,
        /// The hotspots advisor (a move that leaves fewer boxes in other boxes' way).
        advise_hotspots: bool,
        /// The out-of-plan advisor (a move that leaves fewer boxes out of plan).
        advise_out_of_plan: bool,
    }
}

switches! {
    /// Switches of the forward (push) search (`push.*`).
    PushSwitches for PushConfig {
        /// Lower bound: `matching`, `nearest` or `zero`.
        bound: BoundKind,
        /// Pushes onto dead squares are pruned.
        dead_squares: bool,
        /// Freeze deadlocks.
        freeze: bool,
        /// Closed diagonal deadlocks.
        diagonals: bool,
        /// The sound tunnel rule.
        tunnels: bool,
        /// Boxes frozen on goals are walls for the others' distances.
        frozen_goals: bool,
        /// PI-corral pruning.
        corrals: bool,
        /// Corral deadlocks (small searches on a corral's fence).
        corral_deadlocks: bool,
        /// Shut-in boxes.
        shut_in: bool,
        /// Pair deadlock table.
        pair_deadlocks: bool,
        /// The pair bound: pushes of two-box positions.
        pair_bound: bool,
        /// Triple deadlock table.
        triple_deadlocks: bool,
        /// Sealed goals.
        sealed_goals: bool,
        /// Jams.
        jams: bool,
        /// Boxes frozen on goals stand as walls in the small searches.
        frozen_walls: bool,
        /// Goal areas.
        goal_areas: bool,
        /// Goal macros into goal rooms.
        goal_macros: bool,
        /// Goal macros for rooms with several entrances.
        room_entrances: bool,
        /// The goal cut: a state with a goal macro keeps only its macros.
        goal_cut: bool,
        /// Room discipline.
        room_discipline: bool,
        /// Parking plans for goal rooms.
        room_plans: bool,
        /// Feature cells count goals packed in their packing order.
        packing: bool,
        /// Feature cells count links between rooms the boxes cut.
        room_links: bool,
        /// Feature cells count hotspots, boxes in other boxes' way.
        hotspots: bool,
        /// Packing macros.
        packing_macros: bool,
        /// Runs of box moves.
        box_moves: bool,
        /// Children that let the player reach a new side of another box are marked for the
        /// explorer advisor.
        explorer: bool,
        /// Feature cells count the steps of the level's parking plan packed.
        parking_plan: bool,
        /// The parking plan's second search, in feature cells, when the greedy one does not
        /// finish.
        plan_cells: bool,
        /// Feature cells count boxes out of the parking plan.
        out_of_plan: bool,
        /// Children that clear the way to the parking plan's next square are marked for the
        /// opener advisor.
        opener: bool,
        /// Children that bring a box onto a square where the parking plan keeps boxes
        /// waiting are marked for the imagine advisor.
        imagine: bool,
    }
}

switches! {
    /// Switches of the backward (pull) search (`pull.*`).
    PullSwitches for PullConfig {
        /// Lower bound: `matching`, `nearest` or `zero`.
        bound: BoundKind,
        /// Pulls onto squares that cannot return to a start square are pruned.
        dead_squares: bool,
        /// Pair deadlock table, pulling.
        pair_deadlocks: bool,
        /// States the start can never be pushed into.
        start_freeze: bool,
        /// Sealed start squares.
        sealed_starts: bool,
        /// Jams, pulling.
        jams: bool,
        /// Confined players.
        confinement: bool,
        /// Feature cells count start squares filled in their packing order.
        packing: bool,
        /// Feature cells count links between rooms the boxes cut, pulling.
        room_links: bool,
        /// Runs of box moves, pulling.
        box_moves: bool,
        /// Feature cells count the steps of the backward search's parking plan packed.
        parking_plan: bool,
        /// The backward parking plan's second search, in feature cells, when the greedy one
        /// does not finish.
        plan_cells: bool,
    }
}
