#!/usr/bin/env python3
"""Is this area of a position dead? A prototype of the area deadlock test (not in the solver).

The forward search proves dead areas of hard levels only by exhausting everything the rest of
the level can do meanwhile (benches/results/2026-11-27-dead-roots.txt). This asks the area
alone, soundly, so that a Rust version can be measured against it first.

The abstraction, for an area W (floor squares) of a position:
- a state is the boxes inside W and the player's region inside W; the outside is one free,
  connected space: once the player can step out of W it can come back in at any border;
- moves: a push of a box in W (the player on the square behind it, inside W in its region or
  outside when it can get out), which may take the box out of W (it is then forgotten); or a
  box coming in at any border square from the outside square next to it (the player behind
  it), as many as wanted;
- no box is ever put on a square from which it cannot reach any goal (dead squares);
- done when the boxes in W are exactly W's goals.

Every solution of the whole level, seen through W, is a path of this search: boxes leave W and
come in only through its border, pushes are never less legal with the outside emptied, and
at the end every goal holds a box and every box is on a goal. So if the search runs out of
states without being done, the position has no solution.

Usage:
    python3 benches/area_probe.py POSITION.xsb --xmax 8 [--budget 2000000]
    python3 benches/area_probe.py POSITION.xsb --rect X0,Y0,X1,Y1
POSITION.xsb holds one position (the first board in the file). Squares count from 0, from the
top-left of the board's rows. Plain Python 3, breadth first, nothing but dead squares pruned.
"""

import argparse
import sys
from collections import deque

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def add(a, d):
    return (a[0] + d[0], a[1] + d[1])


def sub(a, d):
    return (a[0] - d[0], a[1] - d[1])


def read_position(path):
    rows, started = [], False
    for line in open(path, encoding="latin-1"):
        line = line.rstrip("\n")
        if line.startswith(";") or not line.strip():
            if started:
                break
            continue
        started = True
        rows.append(line)
    walls, goals, boxes, player = set(), set(), set(), None
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "#":
                walls.add((x, y))
            if c in ".*+":
                goals.add((x, y))
            if c in "$*":
                boxes.add((x, y))
            if c in "@+":
                player = (x, y)
    if player is None:
        sys.exit(f"{path}: no player in the first board")
    return rows, walls, goals, boxes, player


class Area:
    def __init__(self, rows, walls, goals, player, inside):
        height, width = len(rows), max(len(r) for r in rows)
        # Floor: what the player could walk to with no box on the board.
        self.floor = {player}
        stack = [player]
        while stack:
            c = stack.pop()
            for d in DIRS:
                n = add(c, d)
                if n not in walls and n not in self.floor and 0 <= n[0] < width and 0 <= n[1] < height:
                    self.floor.add(n)
                    stack.append(n)
        # Live squares: a lone box there can be pushed to some goal (pulled back from goals).
        self.live = set(g for g in goals if g in self.floor)
        queue = deque(self.live)
        while queue:
            c = queue.popleft()
            for d in DIRS:
                b, p = add(c, d), add(add(c, d), d)
                if b in self.floor and p in self.floor and b not in self.live:
                    self.live.add(b)
                    queue.append(b)
        self.w = {c for c in self.floor if inside(c)}
        self.out = self.floor - self.w
        self.border = {c for c in self.w if any(add(c, d) in self.out for d in DIRS)}
        self.goals = frozenset(g for g in goals if g in self.w)

    def region(self, boxes, player):
        """(player can get out of W, its squares in W)."""
        out = player in self.out
        seen = set() if out else {player}
        stack = list(seen)

        def flood():
            nonlocal out
            while stack:
                c = stack.pop()
                for d in DIRS:
                    n = add(c, d)
                    if n in self.out:
                        out = True
                    elif n in self.w and n not in boxes and n not in seen:
                        seen.add(n)
                        stack.append(n)

        flood()
        if out:
            for c in self.border:
                if c not in boxes and c not in seen:
                    seen.add(c)
                    stack.append(c)
            flood()
        return out, frozenset(seen)

    def moves(self, boxes, out, region):
        """(boxes in W after, player square after) for every move."""
        def reach(c):
            return c in region if c in self.w else (out and c in self.out)

        for b in boxes:
            for d in DIRS:
                p, t = sub(b, d), add(b, d)
                if p in self.floor and reach(p) and t in self.live and t not in boxes:
                    after = set(boxes)
                    after.remove(b)
                    if t in self.w:
                        after.add(t)
                    yield frozenset(after), b
        for e in self.w:
            if e in boxes or e not in self.live:
                continue
            for d in DIRS:
                o = sub(e, d)
                p = sub(o, d)
                if o in self.out and p in self.floor and reach(p) and p not in boxes:
                    yield frozenset(boxes | {e}), o


def probe(area, boxes, player, budget):
    """('dead' | 'not dead' | 'budget', states)."""
    boxes = frozenset(b for b in boxes if b in area.w)
    if boxes == area.goals:
        return "not dead", 1

    def key(bx, out, region):
        return bx, (None if out else min(region))

    out, region = area.region(boxes, player)
    seen = {key(boxes, out, region)}
    queue = deque([(boxes, out, region)])
    while queue:
        bx, out, region = queue.popleft()
        for after, p in area.moves(bx, out, region):
            out2, region2 = area.region(after, p)
            k = key(after, out2, region2)
            if k in seen:
                continue
            if after == area.goals:
                return "not dead", len(seen)
            seen.add(k)
            if len(seen) > budget:
                return "budget", len(seen)
            queue.append((after, out2, region2))
    return "dead", len(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("position", help="XSB file; its first board is the position")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--xmax", type=int, help="the area: floor squares with x <= XMAX")
    group.add_argument("--rect", help="the area: floor squares in X0,Y0,X1,Y1 (inclusive)")
    ap.add_argument("--budget", type=int, default=2_000_000, help="most states before giving up")
    args = ap.parse_args()
    rows, walls, goals, boxes, player = read_position(args.position)
    if args.xmax is not None:
        def inside(c):
            return c[0] <= args.xmax
    else:
        x0, y0, x1, y1 = (int(v) for v in args.rect.split(","))

        def inside(c):
            return x0 <= c[0] <= x1 and y0 <= c[1] <= y1
    area = Area(rows, walls, goals, player, inside)
    boxes_in = sum(1 for b in boxes if b in area.w)
    print(f"area: {len(area.w)} squares, {len(area.goals)} goals, {boxes_in} boxes, "
          f"{len(area.border)} border squares")
    verdict, states = probe(area, boxes, player, args.budget)
    print(f"{verdict} after {states} states")


if __name__ == "__main__":
    main()
