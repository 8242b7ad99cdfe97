//! Macro moves: a box taken on from a goal room's entrance to its next goal in one move, or
//! along a target's way in, and how such a move is read back as pushes.

use super::*;

/// Where a macro move goes after its first push.
pub(crate) enum MacroWay<'r> {
    /// Along step `j` of a goal room's order, from entrance `e`: `Room(room, j, e)`.
    Room(&'r GoalRoom, usize, usize),
    /// Along step `j` of the order of a room with one entrance, for a box that stood on the
    /// entrance (room discipline): no push onto the entrance comes first. Stored with the
    /// direction out of the room, which no other macro of the room has.
    FromEntrance(&'r GoalRoom, usize),
    /// Along a target's way in, from the square it starts on.
    Packing(Cell, &'r [Dir]),
}

impl Forward<'_> {
    /// Appends the goal macro that follows pushing box `i` in `dir` onto entrance `e` of
    /// `room`, if the room is at a step of its order with a path from there and the player can
    /// then get behind the box (and, for a room with several entrances, behind it at every
    /// push of the path, with the boxes as they are).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_macro(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        room: &GoalRoom,
        e: usize,
        dir: Dir,
        (from, steps): (Cell, u16),
        out: &mut Vec<Child>,
    ) {
        // The box comes from outside the room, so the room's contents are the parent's.
        let Some(j) = room.next_step(|c| s.boxes.is_box(c)) else {
            return;
        };
        // The stored move (goal, first direction) must name this entrance.
        if room.entrance_for(j, dir) != Some(e) {
            return;
        }
        let (b, entrance) = (node.boxes[i], room.entrances()[e]);
        if !room.single_entrance() {
            debug_assert_eq!(from, b, "runs of box moves make macros of rooms with one entrance only");
            // A corridor entrance: the box came from `O`, where the player now stands.
            let Some(path) = room.path(j, e) else { return };
            s.boxes.move_box(b, entrance.cell);
            let free = self.way_is_free(s, entrance.cell, b, path);
            s.boxes.move_box(entrance.cell, b);
            if !free {
                return;
            }
        } else if dir != entrance.dir {
            // Pushed onto the entrance from the side: the player, now where the box was,
            // must walk round to the square behind it.
            s.boxes.move_box(b, entrance.cell);
            s.child_reach.fill(self.board, &s.boxes, from);
            s.boxes.move_box(entrance.cell, b);
            if !s.child_reach.contains(entrance.outside) {
                return;
            }
        }
        s.macros += 1;
        let player = room.player_after(self.board, j, e);
        self.add_child(s, node, ctx, i, room.order()[j], dir, Arrival::Macro(player, steps), out);
    }

    /// Appends the goal macro of box `i`, which stands on the entrance of `room` (a room with
    /// one entrance under room discipline) with the player behind it, if the room is at a
    /// step of its order.
    pub(crate) fn push_from_entrance(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        room: &GoalRoom,
        out: &mut Vec<Child>,
    ) {
        let Some(j) = room.next_step(|c| s.boxes.is_box(c)) else {
            return;
        };
        if room.path(j, 0).is_none() {
            return;
        }
        s.macros += 1;
        let player = room.player_after(self.board, j, 0);
        let out_of_room = room.entrances()[0].dir.opposite();
        self.add_child(s, node, ctx, i, room.order()[j], out_of_room, Arrival::Macro(player, 1), out);
    }

    /// Appends the packing macro that follows pushing box `i` in `dir` onto the square target
    /// `t`'s way in starts from, if `t` is next to fill and the way is free.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_way_in(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        order: &PackingOrder,
        t: Cell,
        dir: Dir,
        out: &mut Vec<Child>,
    ) {
        let Some((start, dirs)) = order.way_in(t) else { return };
        let b = node.boxes[i];
        if t == b || t == self.board.neighbour(b, dir.opposite()) {
            // The box would come back to where it was, or to where the player stood for the
            // first push: no use, and the move could not be undone from the child alone.
            return;
        }
        s.boxes.move_box(b, start);
        let free = order.is_next(t, |c| s.boxes.is_box(c)) && self.way_is_free(s, start, b, dirs);
        s.boxes.move_box(start, b);
        let Some(&last) = dirs.last() else { return };
        if free {
            s.packing_macros += 1;
            let player = self.board.neighbour(t, last.opposite());
            self.add_child(s, node, ctx, i, t, dir, Arrival::Macro(player, 1), out);
        }
    }

    /// True if the box on `start` (already there in `s.boxes`) can be pushed along `dirs` with
    /// the player starting on `player`: every square ahead of the box is free and the player
    /// can walk behind it before each turn. Leaves `s.boxes` as it found it.
    pub(crate) fn way_is_free(
        &self,
        s: &mut PushScratch,
        start: Cell,
        mut player: Cell,
        dirs: &[Dir],
    ) -> bool {
        let board = self.board;
        let mut at = start;
        let mut free = true;
        for &d in dirs {
            let (behind, ahead) = (board.neighbour(at, d.opposite()), board.neighbour(at, d));
            if ahead == NO_CELL || behind == NO_CELL || s.boxes.is_box(ahead) {
                free = false;
                break;
            }
            if behind != player {
                s.child_reach.fill(board, &s.boxes, player);
                if !s.child_reach.contains(behind) {
                    free = false;
                    break;
                }
            }
            s.boxes.move_box(at, ahead);
            player = at;
            at = ahead;
        }
        if at != start {
            s.boxes.move_box(at, start);
        }
        free
    }

    /// Where a macro move went after its first push, the square its box came from and the
    /// square the player stood on before it.
    pub(crate) fn macro_of(&self, mv: PackedMove) -> Option<(MacroWay<'_>, Cell, Cell)> {
        let back = mv.dir().opposite();
        let behind = |from: Cell| {
            let player = self.board.neighbour(from, back);
            (from != NO_CELL && player != NO_CELL).then_some((from, player))
        };
        if let Some((room, j)) = self.rooms.as_deref().and_then(|r| r.step_of(mv.to())) {
            let first = room.entrances()[0];
            if room.single_entrance() && mv.dir() == first.dir.opposite() {
                room.path(j, 0)?;
                return Some((MacroWay::FromEntrance(room, j), first.cell, first.outside));
            }
            let e = room.entrance_for(j, mv.dir())?;
            let (from, player) = behind(self.board.neighbour(room.entrances()[e].cell, back))?;
            return Some((MacroWay::Room(room, j, e), from, player));
        }
        let (start, dirs) = self.packing.as_ref().filter(|_| self.config.packing_macros)?.way_in(mv.to())?;
        let (from, player) = behind(self.board.neighbour(start, back))?;
        Some((MacroWay::Packing(start, dirs), from, player))
    }
}

/// The room discipline's map (see [`Forward::discipline`]), or `None` when no room qualifies.
pub(crate) fn discipline_map(board: &Board, rooms: &GoalRooms) -> Option<Vec<u8>> {
    let mut map = vec![0; board.n_cells()];
    let mut any = false;
    for room in rooms.rooms().iter().filter(|r| r.single_entrance()) {
        let entrance = room.entrances()[0].cell;
        any = true;
        map[entrance as usize] = DISCIPLINED_ENTRANCE;
        for &c in room.cells() {
            map[c as usize] = DISCIPLINED_ROOM;
        }
    }
    any.then_some(map)
}
