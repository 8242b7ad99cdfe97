#!/bin/bash
# Paired runs: two bisolve binaries on one level at the same time, one thread each, with the
# same state limit, so both see the same machine load. Prints each run's states, CPU (user +
# sys) and peak RSS. A one-thread run is deterministic: both binaries make the same states
# when the search is unchanged, so CPU and memory compare at equal work.
#
#   benches/pair.sh LEVEL_FILE STATES BINARY_A BINARY_B [REPEATS]
#   e.g. benches/pair.sh x30.xsb 6000000 /tmp/bisolve-old target/release/bisolve 3
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
level=$1; states=$2; a=$3; b=$4; reps=${5:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for _ in $(seq "$reps"); do
    for k in 0 1; do
        bin=$([ $k = 0 ] && echo "$a" || echo "$b")
        ( /usr/bin/time -f "%U %S %M" -o "$dir/t$k" "$bin" "$level" --threads 1 --states "$states" --json > "$dir/o$k" || true ) &
    done
    wait
    for k in 0 1; do
        bin=$([ $k = 0 ] && echo "$a" || echo "$b")
        python3 - "$dir/o$k" "$dir/t$k" "$bin" <<'PY'
import json, sys
record = json.loads(open(sys.argv[1]).readline())
user, sys_, rss = open(sys.argv[2]).read().split("\n")[-2].split()
print(f"{sys.argv[3]}: {record['states']} states, CPU {float(user) + float(sys_):.2f} s "
      f"(user {user}, sys {sys_}), peak RSS {int(rss) // 1024} MB")
PY
    done
done
