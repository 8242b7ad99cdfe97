#!/usr/bin/env python3
"""Where did the forward search go wrong? Bisect its closest path for the first dead push.

An unsolved level's `--json` record holds `forward.closest_lurd`: the moves from the start to
the first state the forward search made with its smallest lower bound. On hard levels that
state is dead (no solution from it), and so is every state after the push that killed it.
This script replays prefixes of the path and asks bisolve about the position after each:

- dead: a forward search from it (`-s forward`, one thread, which is complete) runs dry, or
  failing that the default search proves it unsolvable;
- alive: either search solves it;
- unknown: neither decides within the time given.

It bisects for the first provably dead prefix (unknown counts as not provable, which is the
usual case a few pushes before the proof gets small enough), then prints the last position
not proven dead and the first one proven dead, with the states the proof took (the forward
proof's states are the dead subtree the main search has to exhaust, or prune, below that
push).

Usage:
    bisolve bench LEVELS.xsb --json out.json ...     (unsolved levels get closest_lurd)
    python3 benches/dead_root.py out.json --level 38 [--bisolve target/release/bisolve]
    python3 benches/dead_root.py out.json             (every unsolved level in the file)

Plain Python 3; it reads the level through `bisolve show`, so any format bisolve reads works.
Run it from the directory the record's `file` path is relative to.
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

DIRS = {"l": (-1, 0), "r": (1, 0), "u": (0, -1), "d": (0, 1)}


def level_rows(bisolve, path, level):
    """The level's rows as `bisolve show` draws them (first line is its header)."""
    out = subprocess.run(
        [bisolve, "show", path, "-l", str(level), "--color", "never"],
        check=True, capture_output=True, text=True,
    ).stdout
    lines = out.splitlines()
    rows = []
    for line in lines[1:]:
        if not line.strip():
            break
        rows.append(line)
    return rows


class Position:
    def __init__(self, rows):
        self.walls, self.goals, self.boxes = set(), set(), set()
        self.height = len(rows)
        self.width = max(len(r) for r in rows)
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                if c == "#":
                    self.walls.add((x, y))
                if c in ".*+":
                    self.goals.add((x, y))
                if c in "$*":
                    self.boxes.add((x, y))
                if c in "@+":
                    self.player = (x, y)

    def after(self, lurd, pushes):
        """A copy after the moves up to and including the `pushes`-th push."""
        p = copy.copy(self)
        p.boxes = set(self.boxes)
        done = 0
        for ch in lurd:
            if done == pushes:
                break
            dx, dy = DIRS[ch.lower()]
            nxt = (p.player[0] + dx, p.player[1] + dy)
            if nxt in p.walls:
                raise ValueError(f"move {ch} walks into a wall")
            if nxt in p.boxes:
                to = (nxt[0] + dx, nxt[1] + dy)
                if not ch.isupper() or to in p.walls or to in p.boxes:
                    raise ValueError(f"bad push {ch}")
                p.boxes.remove(nxt)
                p.boxes.add(to)
                done += 1
            elif ch.isupper():
                raise ValueError(f"move {ch} pushes nothing")
            p.player = nxt
        return p

    def xsb(self):
        rows = []
        for y in range(self.height):
            row = ""
            for x in range(self.width):
                c = (x, y)
                if c in self.walls:
                    row += "#"
                elif c in self.boxes:
                    row += "*" if c in self.goals else "$"
                elif c == self.player:
                    row += "+" if c in self.goals else "@"
                else:
                    row += "." if c in self.goals else " "
            rows.append(row.rstrip())
        return "\n".join(rows)


def count_pushes(lurd):
    return sum(1 for ch in lurd if ch.isupper())


def ask(bisolve, position, args, workdir, k):
    """('dead' | 'alive' | 'unknown', states of the forward search)."""
    path = os.path.join(workdir, f"p{k}.xsb")
    with open(path, "w") as f:
        f.write(f"; P{k}\n\n{position.xsb()}\n")

    def run(extra, secs):
        out = subprocess.run(
            [bisolve, path, "--json", "--time-limit", str(secs)] + extra,
            capture_output=True, text=True,
        ).stdout
        line = next((l for l in out.splitlines() if l.startswith("{")), None)
        return json.loads(line) if line else {"status": "error", "states": 0}

    r = run(["-s", "forward", "--threads", "1"], args.forward_seconds)
    if r["status"] == "unsolvable":
        return "dead", r["states"]
    if r["status"] == "solved":
        return "alive", r["states"]
    if args.alive_seconds > 0:
        # The default search proves a position dead too when either direction runs dry (the
        # backward one often does first), so it can decide what the forward one could not.
        a = run(["--threads", str(args.threads)], args.alive_seconds)
        if a["status"] == "solved":
            return "alive", a["states"]
        if a["status"] == "unsolvable":
            return "dead", a["states"]
    return "unknown", r["states"]


def bisect(bisolve, rows, lurd, args, label):
    start = Position(rows)
    total = count_pushes(lurd)
    with tempfile.TemporaryDirectory() as workdir:
        verdicts = {}

        def verdict(k):
            if k not in verdicts:
                verdicts[k] = ask(bisolve, start.after(lurd, k), args, workdir, k)
                print(f"  {label}: after {k} pushes: {verdicts[k][0]} ({verdicts[k][1]} states)", flush=True)
            return verdicts[k]

        if verdict(total)[0] != "dead":
            print(f"{label}: the closest state itself ({total} pushes) is not proven dead")
            return
        lo, hi = 0, total
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if verdict(mid)[0] == "dead":
                hi = mid
            else:
                lo = mid
        alive = max((k for k, v in verdicts.items() if v[0] == "alive"), default=None)
        print(f"{label}: {total} pushes on the path; first proven dead after {hi} "
              f"({verdicts[hi][1]} states to prove), last proven alive: "
              f"{'none' if alive is None else f'after {alive}'}")
        print(f"; {label} after {lo} pushes ({verdicts.get(lo, ('not asked',))[0]})\n")
        print(start.after(lurd, lo).xsb() + "\n")
        print(f"; {label} after {hi} pushes (dead)\n")
        print(start.after(lurd, hi).xsb() + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="bisolve --json output (solve or bench)")
    ap.add_argument("--level", help="only the record with this title or 1-based index")
    ap.add_argument("--bisolve", default="target/release/bisolve")
    ap.add_argument("--forward-seconds", type=float, default=15, help="forward search per position")
    ap.add_argument("--alive-seconds", type=float, default=20,
                    help="default search for a position the forward one did not decide (0: skip)")
    ap.add_argument("--threads", type=int, default=2, help="threads of the default search")
    args = ap.parse_args()
    if not os.path.isfile(args.bisolve):
        sys.exit(f"no bisolve binary at {args.bisolve} (cargo build --release, or --bisolve PATH)")
    found = False
    for line in open(args.json):
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if "status" not in r or r["status"] == "solved":
            continue
        if args.level and args.level not in (str(r.get("title")), str(r.get("index"))):
            continue
        lurd = (r.get("forward") or {}).get("closest_lurd")
        if not lurd:
            continue
        found = True
        label = f"{os.path.basename(r['file'])} {r.get('title') or r['index']}"
        rows = level_rows(args.bisolve, r["file"], r["index"])
        bisect(args.bisolve, rows, lurd, args, label)
    if not found:
        sys.exit("no unsolved record with a forward closest_lurd in " + args.json)


if __name__ == "__main__":
    main()
