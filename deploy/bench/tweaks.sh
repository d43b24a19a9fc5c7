#!/usr/bin/env bash
# Each engine tweak (ax.axon.*, docs/benchmark.md "Engine optimisations") on and off, in alternating pairs of runs
# of a fresh JVM each, so that a drift of the machine's speed falls on both sides alike:
#   bash deploy/bench/tweaks.sh                 (TWEAK_PAIRS=3 pairs per tweak; TWEAKS="a b" picks some)
#   TWEAK_WORKLOAD=W3 W3_SCHEDULES=100000 bash deploy/bench/tweaks.sh   (W3: about 5 minutes a run)
# Prints one line per run and a summary per tweak, on and off: W1 mean jobs/s and statements per job; W3 mean CPU
# per fire at steady state (node and database), statements per fire, p99 lag and missed fires. The first figure's
# on/off ratio ends each summary line; every run's whole JSON line is kept in the file named last.
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${TWEAK_PAIRS:-3}
workload=${TWEAK_WORKLOAD:-W1}
tweaks=${TWEAKS:-"multi-row-appends reads-outside-transactions reader-wake-ms counted-work-queues metadata-reader saga-batch-lookups saga-segment-routing type-matched-handlers cached-command-targets correlation-in-one reader-below-own-appends plain-results known-types one-group-handlers"}
if [ "$workload" = W3 ]; then
  figures="steady_cpu_ms statements_per_fire p99_ms missed duplicates"
else
  figures="jobs_per_s statements_per_job exactly_once"
fi
on_value() { [ "$1" = reader-wake-ms ] && echo 20 || echo true; }
off_value() { [ "$1" = reader-wake-ms ] && echo 0 || echo false; }
out=$(mktemp --suffix=.tweaks.jsonl)
for t in $tweaks; do
  for p in $(seq 1 "$pairs"); do
    for side in on off; do
      # each side names its value: a tweak that is off by default is switched on for its on side
      opts="-Xmx2g -Dax.axon.$t=$([ "$side" = on ] && on_value "$t" || off_value "$t")"
      line=$(BENCH_JAVA_OPTS="$opts" bash deploy/bench/run.sh "$workload" 2>/dev/null | grep '^{' || echo '{}')
      echo "$t $side $line" | tee -a "$out" | python3 -c "
import json, sys
t, side, rest = sys.stdin.read().split(' ', 2)
r = json.loads(rest)
print(f'{t:28} {side:3} ' + ' '.join(f'{k} {r.get(k)}' for k in sys.argv[1:]), file=sys.stderr)" $figures
    done
  done
done
python3 - "$out" $figures <<'PY'
import json, sys, collections
keys = [k for k in sys.argv[2:] if k not in ("exactly_once", "duplicates")]  # the yes/no ones show per run only
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    t, side, rest = line.split(" ", 2)
    r = json.loads(rest)
    if keys[0] in r: runs[t][side].append(r)
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
print(f"{'tweak':28} " + " ".join(f"{k + ' ' + s:>24}" for k in keys for s in ("on", "off")) + f" {'on/off':>7}")
for t, sides in runs.items():
    cells = [mean([r[k] for r in sides[s] if r.get(k) is not None]) for k in keys for s in ("on", "off")]
    print(f"{t:28} " + " ".join(f"{c:24.2f}" for c in cells) + f" {cells[0] / cells[1]:7.2f}")
PY
echo "every run: $out" >&2
