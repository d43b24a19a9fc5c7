#!/usr/bin/env bash
# The console's timings with a million finished jobs (docs/benchmark.md, "Console timings"):
#   bash deploy/bench/console-bench.sh
# Makes database CONSOLE_DB (ax_console_bench, dropped first) on BENCH_JDBC_URL's server, starts a node on it
# (deploy/target/ax-scheduler.jar, port CONSOLE_PORT 18090), fills job_queue with 1,000,000 finished jobs and the
# statistics tables for the last day by SQL, makes 10,000 schedules and 300 real jobs through the API, then times each
# path with console-timings.py (100 requests after a warm-up); CONSOLE_PAGE_TO_END=1 then pages the SUCCEEDED list to
# its end and prints the heap after GC as it goes. The node is stopped at the end; the database stays.
set -euo pipefail
cd "$(dirname "$0")/../.."
db=${CONSOLE_DB:-ax_console_bench}
port=${CONSOLE_PORT:-18090}
host=${BENCH_DB_HOST:-127.0.0.1}
dbport=${BENCH_DB_PORT:-3306}
user=${BENCH_DB_USER:-root}
pass=${BENCH_DB_PASSWORD:-}
key="ax_console-bench-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
sql() { mysql -h"$host" -P"$dbport" -u"$user" ${pass:+-p"$pass"} "$@"; }
[ -f deploy/target/ax-scheduler.jar ] || mvn -q -B -pl deploy -am package -DskipTests 1>&2
sql -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
AX_DB_URL="jdbc:mariadb://$host:$dbport/$db" AX_DB_USER="$user" AX_DB_PASSWORD="$pass" AX_BOOTSTRAP_ADMIN_KEY="$key" \
  AX_BOOTSTRAP_ADMIN_PASSWORD="$key" java -Xmx1g -jar deploy/target/ax-scheduler.jar --server.port="$port" \
  > /tmp/console-bench-node.log 2>&1 &
node=$!
trap 'kill $node 2>/dev/null || true' EXIT
api() { curl -sf -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@"; }
for _ in $(seq 1 120); do api "http://127.0.0.1:$port/actuator/health" >/dev/null 2>&1 && break; sleep 1; done
echo "[console-bench] node up; loading 1,000,000 finished jobs" >&2
now=$(sql -N -e "SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)")
sql "$db" <<SQL
INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority, run_at, attempt,
                       max_retries, timeout_ms, params, node, schedule_id, created_at, updated_at, namespace)
SELECT CONCAT('bench-', LPAD(seq, 7, '0')), NULL, CONCAT('type-', seq MOD 10),
       CASE WHEN seq MOD 100 < 95 THEN 'SUCCEEDED' WHEN seq MOD 100 < 99 THEN 'FAILED' ELSE 'TIMED_OUT' END,
       0, 0, 0, $now - 86400000 + seq * 86, 1, 3, 60000, '{}', 'bench-node',
       CASE WHEN seq MOD 10 = 0 THEN CONCAT('sched-', LPAD(seq DIV 10 MOD 10000, 5, '0')) END,
       $now - 86400000 + seq * 86, $now - 86400000 + seq * 86 + 5, 'default'
FROM seq_1_to_1000000;
INSERT INTO stats_outcomes (minute_at, namespace, job_type, outcome, jobs)
SELECT ($now DIV 60000 - m.seq) * 60000, 'default', CONCAT('type-', t.seq), o.outcome, 60
FROM seq_0_to_1440 m, seq_0_to_9 t,
     (SELECT 'SUCCEEDED' outcome UNION ALL SELECT 'FAILED' UNION ALL SELECT 'TIMED_OUT') o;
INSERT INTO stats_outcomes_hourly (hour_at, namespace, job_type, outcome, jobs)
SELECT minute_at DIV 3600000 * 3600000, namespace, job_type, outcome, SUM(jobs)
FROM stats_outcomes GROUP BY minute_at DIV 3600000 * 3600000, namespace, job_type, outcome;
SQL
echo "[console-bench] 10,000 schedules and 300 jobs through the API" >&2
for b in $(seq 0 9); do
  body=$(python3 -c "import json; print(json.dumps({'schedules': [{'name': f'console-bench-$b-{i}', 'trigger': {'type': 'cron', 'expression': '0 0 1 1 1 ?'}, 'job': {'jobType': 'noop'}} for i in range(1000)]}))")
  api -XPOST "http://127.0.0.1:$port/api/v1/schedules/batch" -d "$body" >/dev/null
done
body=$(python3 -c "import json; print(json.dumps({'jobs': [{'jobType': 'noop'} for i in range(300)]}))")
api -XPOST "http://127.0.0.1:$port/api/v1/jobs/batch" -d "$body" >/dev/null
sleep 5
job=$(api "http://127.0.0.1:$port/api/v1/jobs?status=SUCCEEDED&jobType=noop&size=1" | python3 -c "import json,sys; print(json.load(sys.stdin)['items'][0]['jobId'])")
from=$(python3 -c "import datetime; t=datetime.datetime.now(datetime.timezone.utc)-datetime.timedelta(hours=3); print(t.strftime('%Y-%m-%dT%H:%M:%SZ'))")
to=$(python3 -c "import datetime; t=datetime.datetime.now(datetime.timezone.utc)-datetime.timedelta(hours=2); print(t.strftime('%Y-%m-%dT%H:%M:%SZ'))")
AX_KEY="$key" AX_CONSOLE_USER=admin AX_CONSOLE_PASSWORD="$key" python3 deploy/bench/console-timings.py "$port" "${CONSOLE_REQUESTS:-100}" \
  /api/v1/stats/overview \
  "/console/jobs?status=SUCCEEDED" "/console/jobs?status=FAILED" "/console/jobs?type=type-3" \
  "/console/jobs?type=type-3&status=TIMED_OUT" "/console/jobs?schedule=sched-00042" \
  "/console/jobs?from=$from&to=$to" "/console/jobs?q=bench-0500000" /console/jobs \
  "/console/jobs/$job" "/api/v1/jobs?status=SUCCEEDED&size=50" "/api/v1/jobs/$job/history"
if [ -n "${CONSOLE_PAGE_TO_END:-}" ]; then
  # memory while an operator pages the whole status to its end (950,000 rows, 200 a page)
  AX_CONSOLE_USER=admin AX_CONSOLE_PASSWORD="$key" python3 deploy/bench/console-paging.py "$port" "$node" \
    "/console/jobs?status=SUCCEEDED&size=200"
fi
