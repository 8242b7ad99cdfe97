#!/usr/bin/env python3
"""Labels Boxoban levels with their solution lengths and writes a CSV.

    python python/examples/label_boxoban.py [LEVELS] [--count 1000] [--out labels.csv]

LEVELS defaults to ../shared/levels/boxoban-hard-000.txt beside the bisolve source tree. Each
CSV row holds the level's title, its status, moves, pushes, seconds and the LURD solution.
The levels run in parallel in this process, one thread each, and the script reports levels per
second.
"""

import argparse
import csv
import sys
import time
from pathlib import Path

import bisolve

DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "levels" / "boxoban-hard-000.txt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("levels", nargs="?", default=str(DEFAULT), help="a Boxoban (or any XSB/SOK) file")
    parser.add_argument("--count", type=int, default=1000, help="label the first COUNT levels")
    parser.add_argument("--out", default="labels.csv", help="the CSV to write")
    parser.add_argument("--jobs", type=int, default=None, help="levels at once (default: every core)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per level")
    args = parser.parse_args()

    path = Path(args.levels)
    if not path.exists():
        print(f"label_boxoban: {path} does not exist", file=sys.stderr)
        return 2
    levels = bisolve.parse(path.read_text())[: args.count]
    started = time.perf_counter()
    results = bisolve.solve_many(
        levels, jobs=args.jobs, threads_per_level=1, time_limit=args.time_limit, progress=True
    )
    seconds = time.perf_counter() - started
    with open(args.out, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["title", "status", "moves", "pushes", "seconds", "solution"])
        for level, r in zip(levels, results):
            out.writerow([level.title, r.status, r.moves, r.pushes, f"{r.seconds:.4f}", r.solution or ""])
    solved = sum(r.solved for r in results)
    print(
        f"{path.name}: solved {solved} of {len(levels)} levels in {seconds:.2f} s "
        f"({len(levels) / seconds:.0f} levels/s); wrote {args.out}"
    )
    return 0 if solved == len(levels) else 1


if __name__ == "__main__":
    sys.exit(main())
