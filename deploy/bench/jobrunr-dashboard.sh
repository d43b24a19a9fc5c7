#!/usr/bin/env bash
# JobRunr's dashboard API with a million succeeded jobs, beside console-bench.sh (docs/benchmark.md, "Console timings"):
#   bash deploy/bench/jobrunr-dashboard.sh
# JobRunr 8 on BENCH_JDBC_URL's server, database ax_console_bench_jobrunr (dropped first), its dashboard on port
# 18091; times the job list by state with offset and limit and one job's page, 100 requests each after a warm-up.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=deploy/bench/target/ax-bench.jar
[ -f "$jar" ] || mvn -q -B -pl deploy/bench -am package -DskipTests 1>&2
port=${JOBRUNR_DASHBOARD_PORT:-18091}
out=$(mktemp)
java -Xmx1g -cp "$jar" io.axscheduler.bench.peers.JobRunrDashboard > "$out" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 900); do
  grep -q '^job ' "$out" && break
  kill -0 $pid 2>/dev/null || { echo "JobRunrDashboard failed" >&2; exit 1; }
  sleep 1
done
grep -v '^job ' "$out"
job=$(sed -n 's/^job //p' "$out")
python3 deploy/bench/console-timings.py "$port" "${CONSOLE_REQUESTS:-100}" \
  "/api/jobs?state=SUCCEEDED&offset=0&limit=20&order=updatedAt:DESC" \
  "/api/jobs?state=FAILED&offset=0&limit=20&order=updatedAt:DESC" \
  "/api/jobs/$job"
# a page half way down takes seconds a request: ten of them
python3 deploy/bench/console-timings.py "$port" 10 "/api/jobs?state=SUCCEEDED&offset=500000&limit=20&order=updatedAt:DESC"
