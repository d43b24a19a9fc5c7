#!/usr/bin/env bash
# How fast one node deletes schedules' fire records past their retention (docs/operations.md "Growth and retention"):
#   PRUNE_SCHEDULES=200 PRUNE_SECONDS=300 bash deploy/bench/prune-fires-rate.sh
# Starts the built node (deploy/target/ax-scheduler.jar) on a fresh database `prunebench` of the MariaDB at
# 127.0.0.1:3306 (root, no password) with a snapshot every 100 events of a schedule, makes PRUNE_SCHEDULES schedules
# firing every second, lets them fire for PRUNE_SECONDS, pauses them and stops the node, moves every schedule event's
# time to 2000 (the stand-in for the retention passing), and starts the node again with a retention of 1h checked
# every 5 s: its first check walks every schedule. Prints the checks that deleted records and how long deleting took.
# Drops the database at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
schedules=${PRUNE_SCHEDULES:-200}
seconds=${PRUNE_SECONDS:-300}
db=prunebench
port=${PRUNE_PORT:-18391}
key=prune-rate-key-0123456789abcdef0123456789
sql() { mysql -uroot -h127.0.0.1 -N "$@"; }
sql -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
dir=$(mktemp -d)
node=
start_node() {
  AX_DB_URL=jdbc:mariadb://127.0.0.1:3306/$db AX_DB_USER=root AX_DB_PASSWORD= SERVER_PORT=$port \
    AX_NODE_ID=prune-rate AX_BOOTSTRAP_ADMIN_KEY=$key AX_BOOTSTRAP_ADMIN_PASSWORD=prune-rate-password-0123 \
    AX_DATA_DIR="$dir" AX_RETENTION_FINISHED_JOBS=1h AX_SCHEDULER_RETENTION_CHECK_MS=5000 \
    java -Xmx1g -jar deploy/target/ax-scheduler.jar --ax.command.snapshots.schedule-threshold=100 >> "$dir/node.log" 2>&1 &
  node=$!
  for _ in $(seq 1 180); do curl -sf "localhost:$port/actuator/health" > /dev/null 2>&1 && break; sleep 1; done
}
trap 'kill $node 2>/dev/null || true; wait $node 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $db"' EXIT
start_node
python3 - "$schedules" "$port" "$key" <<'PY'
import json, sys, urllib.request
n, port, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
body = json.dumps({"schedules": [
    {"name": f"prune-{i}", "trigger": {"type": "fixedRate", "intervalMs": 1000}, "job": {"jobType": "noop"}}
    for i in range(n)]}).encode()
urllib.request.urlopen(urllib.request.Request(
    f"http://127.0.0.1:{port}/api/v1/schedules/batch", data=body, method="POST",
    headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})).read()
PY
sleep "$seconds"
for id in $(sql $db -e "SELECT schedule_id FROM schedules"); do
  curl -sf -XPOST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{}' \
    "localhost:$port/api/v1/schedules/$id/pause" > /dev/null
done
kill $node; wait $node || true
sql $db -e "UPDATE DomainEventEntry SET timeStamp = '2000-01-01T00:00:00.000Z' WHERE type = 'Schedule'"
echo "schedule events: $(sql $db -e "SELECT COUNT(*) FROM DomainEventEntry WHERE type = 'Schedule'"), snapshots: $(sql $db -e "SELECT COUNT(*) FROM SnapshotEventEntry WHERE type = 'Schedule'")"
start_node
ready=$(date +%s.%N)
left=$(sql $db -e "SELECT COUNT(*) FROM DomainEventEntry WHERE type = 'Schedule'")
# until two checks in a row delete nothing
stable=0
while [ $stable -lt 11 ]; do
  sleep 1
  now=$(sql $db -e "SELECT COUNT(*) FROM DomainEventEntry WHERE type = 'Schedule'")
  if [ "$now" = "$left" ]; then stable=$((stable + 1)); else stable=0; left=$now; last=$(date +%s.%N); fi
done
grep "records of schedules' fires deleted" "$dir/node.log" | sed 's/ INFO .*retention of/ retention/'
grep -E " (WARN|ERROR) " "$dir/node.log" | head -5 || true
python3 -c "import sys; print('deleting ended %.1f s after the node was up (its first check 5 s after start); schedule events left: %s' % (float(sys.argv[2]) - float(sys.argv[1]), sys.argv[3]))" \
  "$ready" "${last:-$ready}" "$left"
