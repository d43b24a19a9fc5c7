#!/usr/bin/env bash
# Each engine tweak (ax.axon.*, docs/benchmark.md "Engine optimisations") on and off, in alternating pairs of W1 runs
# of a fresh JVM each, so that a drift of the machine's speed falls on both sides alike:
#   bash deploy/bench/tweaks.sh                 (TWEAK_PAIRS=3 pairs per tweak; TWEAKS="a b" picks some)
# Prints one line per run (tweak, on/off, jobs/s, statements per job) and a summary per tweak: mean jobs/s on and off.
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${TWEAK_PAIRS:-3}
tweaks=${TWEAKS:-"multi-row-appends reads-outside-transactions reader-wake-ms counted-work-queues metadata-reader saga-batch-lookups saga-segment-routing"}
off_value() { [ "$1" = reader-wake-ms ] && echo 0 || echo false; }
out=$(mktemp)
for t in $tweaks; do
  for p in $(seq 1 "$pairs"); do
    for side in on off; do
      opts="-Xmx2g"
      [ "$side" = off ] && opts="$opts -Dax.axon.$t=$(off_value "$t")"
      line=$(BENCH_JAVA_OPTS="$opts" bash deploy/bench/run.sh W1 2>/dev/null | grep '^{' || echo '{}')
      echo "$t $side $line" | tee -a "$out" | python3 -c "
import json, sys
t, side, rest = sys.stdin.read().split(' ', 2)
r = json.loads(rest)
print(f'{t:28} {side:3} jobs/s {r.get(\"jobs_per_s\")} statements/job {r.get(\"statements_per_job\")} exactly_once {r.get(\"exactly_once\")}', file=sys.stderr)"
    done
  done
done
python3 - "$out" <<'PY'
import json, sys, collections
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    t, side, rest = line.split(" ", 2)
    r = json.loads(rest)
    if "jobs_per_s" in r: runs[t][side].append((r["jobs_per_s"], r.get("statements_per_job")))
print(f"{'tweak':28} {'on jobs/s':>10} {'off jobs/s':>10} {'on/off':>7} {'stmts on':>9} {'stmts off':>9}")
for t, sides in runs.items():
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    on = mean([x for x, _ in sides["on"]]); off = mean([x for x, _ in sides["off"]])
    son = mean([s for _, s in sides["on"] if s is not None]); soff = mean([s for _, s in sides["off"] if s is not None])
    print(f"{t:28} {on:10.0f} {off:10.0f} {on / off:7.2f} {son:9.2f} {soff:9.2f}")
PY
