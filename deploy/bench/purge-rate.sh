#!/usr/bin/env bash
# How fast one node deletes ended jobs past their retention (docs/operations.md "Growth and retention"):
#   PURGE_JOBS=100000 bash deploy/bench/purge-rate.sh
# Starts the built node (deploy/target/ax-scheduler.jar) on a fresh database `purgebench` of the MariaDB at
# 127.0.0.1:3306 (root, no password) with a retention of 1h checked every 5 s, submits PURGE_JOBS noop jobs in batches
# of 1,000, waits until all have ended, moves their times two hours back (the stand-in for two hours passing), and
# prints the node's lines of each check that deleted jobs with the time deletion took. Drops the database at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${PURGE_JOBS:-100000}
db=purgebench
port=${PURGE_PORT:-18390}
key=purge-rate-key-0123456789abcdef0123456789
sql() { mysql -uroot -h127.0.0.1 -N "$@"; }
sql -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
dir=$(mktemp -d)
AX_DB_URL=jdbc:mariadb://127.0.0.1:3306/$db AX_DB_USER=root AX_DB_PASSWORD= SERVER_PORT=$port AX_NODE_ID=purge-rate \
  AX_BOOTSTRAP_ADMIN_KEY=$key AX_BOOTSTRAP_ADMIN_PASSWORD=purge-rate-password-0123 AX_DATA_DIR="$dir" \
  AX_RETENTION_FINISHED_JOBS=1h AX_SCHEDULER_RETENTION_CHECK_MS=5000 \
  java -Xmx1g -jar deploy/target/ax-scheduler.jar > "$dir/node.log" 2>&1 &
node=$!
trap 'kill $node 2>/dev/null || true; wait $node 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $db"' EXIT
for _ in $(seq 1 180); do curl -sf "localhost:$port/actuator/health" > /dev/null 2>&1 && break; sleep 1; done
python3 - "$n" "$port" "$key" <<'PY'
import json, sys, urllib.request
n, port, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
body = json.dumps({"jobs": [{"jobType": "noop"} for _ in range(1000)]}).encode()
for _ in range(n // 1000):
    urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/jobs/batch", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})).read()
PY
until [ "$(sql $db -e "SELECT COUNT(*) FROM job_queue WHERE status <> 'SUCCEEDED'")" = 0 ]; do sleep 2; done
until [ "$(sql $db -e "SELECT COUNT(*) FROM AssociationValueEntry")" = 0 ]; do sleep 2; done
echo "jobs: $(sql $db -e "SELECT COUNT(*) FROM job_queue"), event rows: $(sql $db -e "SELECT COUNT(*) FROM DomainEventEntry")"
sql $db -e "UPDATE job_queue SET created_at = created_at - 7200000, updated_at = updated_at - 7200000, ended_at = ended_at - 7200000"
aged=$(date +%s.%N)
until [ "$(sql $db -e "SELECT COUNT(*) FROM job_queue")" = 0 ]; do sleep 0.5; done
done_at=$(date +%s.%N)
grep "ended jobs deleted" "$dir/node.log" | sed 's/ INFO .*retention of/ retention/'
python3 -c "import sys; print('all %s deleted %.1f s after they were aged (checks every 5 s); event rows left: %s' % (sys.argv[1], float(sys.argv[3]) - float(sys.argv[2]), sys.argv[4]))" \
  "$n" "$aged" "$done_at" "$(sql $db -e "SELECT COUNT(*) FROM DomainEventEntry")"
