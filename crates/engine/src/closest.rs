//! Where the searches of one direction came closest to their targets: the state each table's
//! workers of that direction offer ([`Aim`]) and the other direction's bridges aim at
//! ([`Closest`]; see [`crate::bridge`]).

use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use bisolve_board::search::{Child, Expander};
use bisolve_board::{Cell, State};

/// The state where the searches of one direction in one table came closest to their targets
/// (the smallest bound), shared between threads: the workers of that direction offer theirs,
/// the other direction's bridges aim at it.
#[derive(Debug, Default)]
pub struct Closest {
    version: AtomicU64,
    best: Mutex<Option<(u32, State)>>,
}

impl Closest {
    /// An empty slot.
    pub fn new() -> Closest {
        Closest::default()
    }

    /// Takes `state` (with bound `h`) if it is closer than the one held.
    pub fn offer(&self, h: u32, state: &State) {
        let mut best = self.best.lock();
        if best.as_ref().is_none_or(|(b, _)| h < *b) {
            *best = Some((h, state.clone()));
            self.version.fetch_add(1, Ordering::Release);
        }
    }

    /// How many states have been taken so far (0: none yet).
    #[inline]
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// The state held, with its version.
    pub fn get(&self) -> Option<(u64, State)> {
        let best = self.best.lock();
        best.as_ref().map(|(_, s)| (self.version(), s.clone()))
    }
}

/// Backward expansions per budget of target checks (see [`Aim`]).
const CHECK_STRETCH: u64 = 1 << 16;
/// Targets checked with [`Expander::worth_aiming_at`] per [`CHECK_STRETCH`] expansions at
/// most: where the backward search is stuck in dead ends nearly every expansion has children
/// closer than the best live target so far.
const CHECKS_PER_STRETCH: u32 = 1024;

/// How a backward worker picks the bridges' targets: each child with a new smallest bound,
/// and with live targets ([`crate::Strategy::live_targets`], `--set search.live_targets=true`) only those
/// [`Expander::worth_aiming_at`] does not prove out of the start's reach.
///
/// The bridges stop once the bound reaches its minimum. On levels where the backward
/// search comes closest without finishing, that minimum is often 0: every box on its start
/// square, the player shut in another region, a state the start can never reach. A bridge aimed there starts on its target's boxes and goes
/// nowhere. Live targets keep the bridges on states the start may reach. Measured neutral
/// (off by default): at 10 s a level on XSokoban 1-45 and Sasquatch, 62 levels against 63 (the
/// one lost solved in 9-10 s by either), median time ratio 1.00; at 60 s none of the eight
/// levels where the backward search ends closest was solved either way. Retargeting as well
/// (the closest live state of each stretch of 65,536 backward expansions, whatever the
/// bound) ran 61-201 bridges a level instead of 2-23, still solved none of the eight, and
/// lost a level the bridges solve by following the closest state ever.
#[derive(Debug)]
pub struct Aim<'a> {
    closest: &'a Closest,
    live_only: bool,
    /// The smallest bound this worker offered.
    offered: u32,
    /// Expansions at which the current stretch of checks ends, and the checks left in it.
    stretch_end: u64,
    checks_left: u32,
    /// Children closer than the bar, by bound (reused).
    order: Vec<(u32, usize)>,
}

impl<'a> Aim<'a> {
    /// Targets offered to `closest`; `live_only` as in [`crate::Strategy::live_targets`].
    pub fn new(closest: &'a Closest, live_only: bool) -> Aim<'a> {
        Aim {
            closest,
            live_only,
            offered: u32::MAX,
            stretch_end: CHECK_STRETCH,
            checks_left: CHECKS_PER_STRETCH,
            order: Vec::new(),
        }
    }

    /// Offers the closest of `children` (of the state with `boxes`) that beats the smallest
    /// bound offered so far, and with live targets on is not proved dead; `expanded` is the
    /// worker's count of expansions, for the checks' budget.
    pub fn consider<E: Expander>(
        &mut self,
        exp: &E,
        scratch: &mut E::Scratch,
        boxes: &[Cell],
        children: &[Child],
        expanded: u64,
    ) {
        if !self.live_only {
            if let Some(c) = children.iter().min_by_key(|c| c.h).filter(|c| c.h < self.offered) {
                self.offered = c.h;
                self.closest.offer(c.h, &child_state(boxes, c));
            }
            return;
        }
        if expanded >= self.stretch_end {
            self.stretch_end = expanded + CHECK_STRETCH;
            self.checks_left = CHECKS_PER_STRETCH;
        }
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(children.iter().enumerate().filter(|(_, c)| c.h < self.offered).map(|(i, c)| (c.h, i)));
        order.sort_unstable();
        for &(h, i) in &order {
            if self.checks_left == 0 {
                break;
            }
            self.checks_left -= 1;
            let state = child_state(boxes, &children[i]);
            if exp.worth_aiming_at(scratch, &state.boxes, state.player) {
                self.offered = h;
                self.closest.offer(h, &state);
                break;
            }
        }
        self.order = order;
    }
}

/// The state `child` of the state with `boxes` leads to.
fn child_state(boxes: &[Cell], child: &Child) -> State {
    let mut moved = boxes.to_vec();
    moved[child.box_index as usize] = child.to;
    State::new(moved, child.player)
}
