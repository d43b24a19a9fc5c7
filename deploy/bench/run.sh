#!/usr/bin/env bash
# ax-scheduler's own benchmark (docs/benchmark.md): bash deploy/bench/run.sh [W1|W2|W3] …  (all three when none)
# W3: W3_SCHEDULES (10000) fixed-rate 60 s schedules for W3_MINUTES (3), W3_LEAD_S (10), W3_DRAIN_S (30), as the peers.
# The full production stack on the server of BENCH_JDBC_URL (default jdbc:mariadb://127.0.0.1:3306/, the peers'
# driver), user BENCH_DB_USER / BENCH_DB_PASSWORD (root / empty), database BENCH_DB_NAME (ax_bench, dropped and
# re-created per workload). stdout: one JSON line per workload; progress on stderr.
# One JVM per workload, as the peers run one per (system, workload): a workload run after another in the same JVM
# finds its code compiled already, which the peers never get.
# BENCH_ONE_JVM=1 runs them all in one JVM instead: a node warmed by the workloads before it, not comparable.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=deploy/bench/target/ax-bench.jar
if [ ! -f "$jar" ] || [ -n "${BENCH_REBUILD:-}" ]; then
  mvn -q -B -pl deploy/bench -am package -DskipTests 1>&2
fi
bench() {
  java ${BENCH_JAVA_OPTS:--Xmx2g} -jar "$jar" "$@"
}
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(W1 W2 W3)
if [ -n "${BENCH_ONE_JVM:-}" ]; then
  bench "${workloads[@]}"
else
  for w in "${workloads[@]}"; do bench "$w"; done
fi
