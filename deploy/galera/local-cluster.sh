#!/usr/bin/env bash
# A three-member MariaDB Galera cluster on 127.0.0.1 for trying the scheduler on one (docs/operations.md, "A Galera
# cluster"). Needs mariadbd with wsrep (Debian's mariadb-server), galera-4 and rsync.
#   bash deploy/galera/local-cluster.sh start [DIR]   members on SQL ports 4406, 4407, 4408 (data under DIR, /tmp/ax-galera)
#   bash deploy/galera/local-cluster.sh stop [DIR]
# SQL_PORT (4406) and GROUP_PORT (4567) move the ports: member i listens on SQL_PORT+i-1 and on GROUP_PORT+10(i-1)
# for the group, the next port for incremental and the one after for full state transfers.
# Set AUTO_INCREMENT_CONTROL=ON to see Galera's default, which a node refuses.
set -euo pipefail
cmd=${1:-start}
sql=${SQL_PORT:-4406}
gp=${GROUP_PORT:-4567}
base=${2:-/tmp/ax-galera}
provider=$(ls /usr/lib/galera/libgalera_smm.so /usr/lib/libgalera_smm.so 2>/dev/null | head -1)

up() { mariadb -h127.0.0.1 -P"$1" -uroot -e "SELECT 1" >/dev/null 2>&1; }

case "$cmd" in
  stop)
    for i in 3 2 1; do [ -f "$base/n$i/pid" ] && kill "$(cat "$base/n$i/pid")" 2>/dev/null || true; done
    exit 0 ;;
  start) ;;
  *) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac
[ -n "$provider" ] || { echo "galera-4 is not installed (no libgalera_smm.so)" >&2; exit 1; }
for i in 1 2 3; do
  d=$base/n$i
  mkdir -p "$d/tmp" # a starting member deletes the temporary tables in its tmpdir: not /tmp, shared with others
  port=$((sql + i - 1)); group=$((gp + 10 * (i - 1)))
  cat > "$d/my.cnf" <<CNF
[mariadbd]
datadir=$d/data
tmpdir=$d/tmp
socket=$d/sock
port=$port
bind-address=127.0.0.1
pid-file=$d/pid
log-error=$d/err.log
user=root
binlog_format=ROW
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=256M
wsrep_on=ON
wsrep_provider=$provider
wsrep_cluster_name=ax-galera
wsrep_cluster_address=gcomm://127.0.0.1:$gp,127.0.0.1:$((gp + 10)),127.0.0.1:$((gp + 20))
wsrep_node_address=127.0.0.1:$group
wsrep_node_name=n$i
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$group;ist.recv_addr=127.0.0.1:$((group + 1))"
wsrep_sst_receive_address=127.0.0.1:$((group + 2))
wsrep_sst_method=rsync
wsrep_auto_increment_control=${AUTO_INCREMENT_CONTROL:-OFF}
auto_increment_increment=1
auto_increment_offset=1
CNF
  chmod 644 "$d/my.cnf" # a world-writable option file is ignored
  [ -d "$d/data/mysql" ] || mariadb-install-db --defaults-file="$d/my.cnf" --auth-root-authentication-method=normal >/dev/null
  # the joiner's rsync daemon writes the state transfer as nobody
  chmod -R a+rwX "$d/data"
done
# the first member starts a new cluster unless another member already runs one
if up $((sql + 1)) || up $((sql + 2)); then
  mariadbd --defaults-file="$base/n1/my.cnf" >/dev/null 2>&1 &
else
  mariadbd --defaults-file="$base/n1/my.cnf" --wsrep-new-cluster >/dev/null 2>&1 &
fi
for i in 1 2 3; do
  port=$((sql + i - 1))
  if [ "$i" -gt 1 ] && ! up "$port"; then mariadbd --defaults-file="$base/n$i/my.cnf" >/dev/null 2>&1 & fi
  for _ in $(seq 120); do up "$port" && break; sleep 1; done
  up "$port" || { echo "member n$i did not start: see $base/n$i/err.log" >&2; exit 1; }
done
mariadb -h127.0.0.1 -P"$sql" -uroot -N -e "SHOW STATUS LIKE 'wsrep_cluster_size'"
