#!/usr/bin/env bash
# The peers (db-scheduler, Quartz, JobRunr) under the same workloads: bash deploy/bench/peers.sh [W1|W2|W3] …
# W1 and W2 when none is named. PEERS_SYSTEMS picks the systems (default: db-scheduler db-scheduler-laf quartz
# jobrunr). One JVM per (system, workload); each peer's database is BENCH_DB_NAME_<peer> (ax_bench_dbs, …), dropped
# and re-created per run, on the server and with the user of run.sh (BENCH_JDBC_URL, BENCH_DB_USER, BENCH_DB_PASSWORD).
# stdout: one JSON line per (system, workload); each run's log in deploy/bench/target/logs/<system>-<workload>.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
jar=deploy/bench/target/ax-bench.jar
if [ ! -f "$jar" ] || [ -n "${BENCH_REBUILD:-}" ]; then
  mvn -q -B -pl deploy/bench -am package -DskipTests 1>&2 || exit 1
fi
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(W1 W2)
logs=deploy/bench/target/logs
mkdir -p "$logs"
for w in "${workloads[@]}"; do
  for s in ${PEERS_SYSTEMS:-db-scheduler db-scheduler-laf quartz jobrunr}; do
    java ${PEERS_JAVA_OPTS:--Xmx2g} -cp "$jar" io.axscheduler.bench.peers.Peers "$s" "$w" \
      2> "$logs/$s-$w.log"
    rc=$?
    # the harness prints its own line, with "error", when it fails; this covers a JVM that died before that
    if [ $rc -gt 1 ]; then
      echo "{\"system\":\"$s\",\"workload\":\"$w\",\"error\":\"jvm exit $rc, see $logs/$s-$w.log\"}"
    fi
  done
done
