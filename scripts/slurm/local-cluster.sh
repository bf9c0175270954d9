#!/usr/bin/env bash
# A one-node Slurm cluster on localhost, for trying the job-array scripts and
# for the test that runs them (cmd/blindfish/match_slurm_test.go). Debian's
# packages, run as root:
#
#   apt-get install -y slurm-wlm munge
#   scripts/slurm/local-cluster.sh start    # config, munge key, munged, slurmctld, slurmd
#   export SLURM_CONF=/tmp/blindfish-slurm/slurm.conf   # as start prints
#   scripts/slurm/submit.sh 4 /tmp/x --white random --black attacker --games 8
#   scripts/slurm/local-cluster.sh stop     # stop the daemons, remove everything
#
# Everything lives in one folder, BLINDFISH_SLURM_DIR (default
# /tmp/blindfish-slurm): the config, its own munge key and socket, state,
# spool, logs and pid files. Nothing in /etc is changed, so a machine that
# is a real Slurm node keeps its configuration; the cluster's commands find
# this one through SLURM_CONF (`local-cluster.sh env` prints the line).
# SLURM_PORT (default 6817; slurmd uses the next port) moves the daemons'
# ports. stop kills only the processes named in the folder's pid files.
#
# The node is the machine itself with its CPU count; cgroups are not used
# (proctrack/linuxproc, task/none), so it runs in containers and sandboxes.
set -euo pipefail

dir=${BLINDFISH_SLURM_DIR:-/tmp/blindfish-slurm}
port=${SLURM_PORT:-6817}
conf=$dir/slurm.conf

die() { echo "local-cluster.sh: $*" >&2; exit 1; }

need_root() {
  [ "$(id -u)" -eq 0 ] || die "$1 needs root (slurmd and munged run as root here)"
}

# pid_alive FILE: the pid in FILE names a running process.
pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_pid FILE NAME: end the process of a pid file, waiting up to 10 s.
stop_pid() {
  local file=$1 name=$2 pid
  pid_alive "$file" || return 0
  pid=$(cat "$file")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "== $name ($pid) did not stop: killing it"
  kill -9 "$pid" 2>/dev/null || true
}

write_config() {
  local host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  cat >"$conf" <<CONF
# Written by scripts/slurm/local-cluster.sh: a one-node cluster on localhost.
ClusterName=blindfish-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  need_root start
  for p in munged slurmctld slurmd sbatch; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
      die "$p not found: apt-get install -y slurm-wlm munge"
  done
  export PATH="$PATH:/usr/sbin"
  if pid_alive "$dir/slurmctld.pid" || pid_alive "$dir/slurmd.pid" || pid_alive "$dir/munge/munged.pid"; then
    die "already running in $dir (local-cluster.sh stop first)"
  fi
  rm -rf "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  # Readable by all: users other than root submit jobs through the munge
  # socket and read the config. The key itself is root's alone.
  chmod 755 "$dir" "$dir/munge"

  # The cluster's own munge key and daemon, on a socket of its own.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
    die "munged did not start: $(tail -n 5 "$dir/munge/munged.log" 2>/dev/null)"

  write_config
  export SLURM_CONF=$conf
  slurmctld -c -f "$conf" || die "slurmctld did not start: $(tail -n 5 "$dir/slurmctld.log" 2>/dev/null)"
  slurmd -f "$conf" || die "slurmd did not start: $(tail -n 5 "$dir/slurmd.log" 2>/dev/null)"

  # Ready when the node takes jobs. The wait is bounded in time, each sinfo
  # too: a sinfo that cannot reach its slurmctld (another cluster holds the
  # port) waits out Slurm's message timeout, and 300 such tries were most
  # of an hour.
  local state="" deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | head -n 1 || true)
    case $state in idle | mixed | allocated) break ;; esac
    sleep 0.2
  done
  case $state in
    idle | mixed | allocated) ;;
    *) die "the node is '${state:-unknown}' after 60 s; logs: $dir/slurmctld.log $dir/slurmd.log" ;;
  esac
  echo "== a one-node Slurm cluster runs in $dir ($(hostname -s), $(nproc) CPUs, node $state)"
  echo "export SLURM_CONF=$conf"
}

stop() {
  if [ ! -d "$dir" ]; then
    echo "== nothing in $dir"
    return 0
  fi
  need_root stop
  stop_pid "$dir/slurmd.pid" slurmd
  stop_pid "$dir/slurmctld.pid" slurmctld
  stop_pid "$dir/munge/munged.pid" munged
  rm -rf "$dir"
  echo "== stopped and removed $dir"
}

status() {
  local up=0
  for f in "$dir/munge/munged.pid" "$dir/slurmctld.pid" "$dir/slurmd.pid"; do
    if pid_alive "$f"; then
      echo "$(basename "$f" .pid): running ($(cat "$f"))"
      up=$((up + 1))
    else
      echo "$(basename "$f" .pid): not running"
    fi
  done
  [ "$up" -eq 3 ] && SLURM_CONF=$conf sinfo
  [ "$up" -eq 3 ]
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
    ;;
esac
