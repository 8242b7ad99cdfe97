#!/usr/bin/env python3
"""Compares bisolve's solution lengths with the anchors' (Festival and YASS), level by level.

    bisolve ../shared/levels/xsokoban-1-45.xsb --threads 2 --time-limit 30 --json > x.jsonl
    python3 benches/compare_lengths.py x.jsonl [more.jsonl ...] [--anchors ../shared/anchors]

Reads JSON records (the solve command's `--json` lines, or the file `bench --json` writes),
matches each solved level with the anchor rows of its set (by file name and level number),
and prints per set and solver: the levels both solved, and the geometric means of bisolve's
pushes and moves over the anchor's (below 1.00: bisolve's are shorter). `--levels` lists
every level where bisolve is longer. Plain Python 3.
"""

import argparse
import csv
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Level file name -> (anchor file prefix, level name prefix, how many levels the anchors cover).
SETS = {
    "xsokoban-1-45.xsb": ("xsokoban-1-45", "xsokoban", None),
    "sasquatch.xsb": ("sasquatch", "sasquatch", None),
    "microban.xsb": ("microban", "microban", None),
    "microban2.xsb": ("microban2", "microban2", None),
    "boxoban-hard-000.txt": ("boxoban-hard100", "bh", 100),
}


def read_records(paths):
    """Solved records by (file name, level index)."""
    out = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if r.get("status") == "solved" and "index" in r and "file" in r:
                out[(Path(r["file"]).name, r["index"])] = (r["pushes"], r["moves"])
    return out


def read_anchor(path):
    """Solved rows of one anchor CSV: level number -> (pushes, moves)."""
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] == "solved":
                rows[int(row["level"].rsplit("-", 1)[1])] = (int(row["pushes"]), int(row["moves"]))
    return rows


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="JSON records of bisolve runs")
    parser.add_argument("--anchors", default=str(REPO.parent / "shared" / "anchors"))
    parser.add_argument("--levels", action="store_true", help="list the levels where bisolve is longer")
    args = parser.parse_args()
    anchors = Path(args.anchors)
    if not anchors.is_dir():
        print(f"compare_lengths: {anchors} is absent", file=sys.stderr)
        return 2
    records = read_records(args.records)
    files = sorted({f for f, _ in records})
    print(f"{'set':<22} {'solver':<10} {'both':>5} {'pushes':>8} {'moves':>8}   (bisolve / anchor, geometric mean)")
    totals = defaultdict(lambda: ([], []))
    for name in files:
        if name not in SETS:
            continue
        prefix, _, _ = SETS[name]
        for solver in ("yass", "festival"):
            path = anchors / f"{prefix}-{solver}.csv"
            if not path.exists():
                continue
            anchor = read_anchor(path)
            pushes, moves, longer = [], [], []
            for (f, index), (p, m) in sorted(records.items()):
                if f != name or index not in anchor:
                    continue
                ap, am = anchor[index]
                if min(p, m, ap, am) <= 0:
                    continue
                pushes.append(p / ap)
                moves.append(m / am)
                if p > ap or m > am:
                    longer.append(f"{index}: {p}/{m} against {ap}/{am}")
            totals[solver][0].extend(pushes)
            totals[solver][1].extend(moves)
            print(f"{prefix:<22} {solver:<10} {len(pushes):>5} {geomean(pushes):>8.3f} {geomean(moves):>8.3f}")
            if args.levels and longer:
                print("    longer (pushes/moves): " + "; ".join(longer))
    for solver, (pushes, moves) in totals.items():
        print(f"{'all':<22} {solver:<10} {len(pushes):>5} {geomean(pushes):>8.3f} {geomean(moves):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
