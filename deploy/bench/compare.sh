#!/usr/bin/env bash
# Runs the peers (db-scheduler, Quartz, JobRunr: peers.sh) and then ax-scheduler (run.sh) on the same server and prints
# each figure with the ratio ax-scheduler / best peer.
#   bash deploy/bench/compare.sh [W1 W2 W3]     (or PEERS_WORKLOADS="W3" bash deploy/bench/compare.sh)
# W1 and W2 when none is named; W3 (recurring schedules, ~4 min per system) only when asked.
# The W1_*, W2_*, W3_* and BENCH_* settings reach both sides.
set -euo pipefail
cd "$(dirname "$0")/../.."
workloads=${*:-${PEERS_WORKLOADS:-"W1 W2"}}
out=$(mktemp -d)
# one build for both sides
mvn -q -B -pl deploy/bench -am package -DskipTests 1>&2
echo "[compare] peers: $workloads (logs in deploy/bench/target/logs)" >&2
bash deploy/bench/peers.sh $workloads > "$out/peers.jsonl"
echo "[compare] ax-scheduler: $workloads" >&2
bash deploy/bench/run.sh $workloads > "$out/ax.jsonl"
cat "$out/peers.jsonl" "$out/ax.jsonl"
python3 - "$out/peers.jsonl" "$out/ax.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip().startswith("{")]
for r in rows:
    # should a W1 line's "seconds" come out negative (and so its rate), max_ms is the same span (start to the last
    # job's start): the rate is taken from it and the line says so
    if r.get("workload") == "W1" and isinstance(r.get("seconds"), (int, float)) and r["seconds"] < 0 and r.get("max_ms"):
        r["jobs_per_s"] = round(r["jobs"] / (r["max_ms"] / 1000.0), 1)
        print(f"[compare] {r['system']} W1: seconds was {r['seconds']}; jobs_per_s {r['jobs_per_s']} taken from max_ms", file=sys.stderr)
# (figure, how the best peer is picked: max = higher is better, min = lower is better, None = no ratio)
figures = {"W1": [("jobs_per_s", max), ("p99_ms", min), ("exactly_once", None)],
           "W2": [("p50_ms", min), ("p99_ms", min), ("max_ms", min), ("missing", None), ("duplicates", None)],
           "W3": [("p50_ms", min), ("p99_ms", min), ("max_ms", min), ("expected_fires", None), ("missed", None),
                  ("duplicates", None), ("early", None), ("heap_used_mb", min), ("setup_s", min)]}
for w, figs in figures.items():
    at = [r for r in rows if r.get("workload") == w and "error" not in r]
    if not at: continue
    print(f"\n{w}: " + "  ".join(f"{r['system']}" for r in at))
    for fig, best in figs:
        vals = {r["system"]: r.get(fig) for r in at}
        line = f"  {fig:>14}: " + "  ".join(f"{s}={v}" for s, v in vals.items())
        peers_vals = [v for s, v in vals.items() if s != "ax-scheduler" and isinstance(v, (int, float)) and not isinstance(v, bool)]
        if w != "W1" and fig.endswith("_ms"):
            peers_vals = [v for v in peers_vals if v >= 0]  # a negative lag is a fire before its time, not a better one
        ours = vals.get("ax-scheduler")
        if best and peers_vals and isinstance(ours, (int, float)):
            b = best(peers_vals)
            better = "higher" if best is max else "lower"
            line += f"   ratio ax/best-peer = {ours / b:.2f} ({better} is better)" if b else ""
        print(line)
PY
