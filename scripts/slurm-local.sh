#!/usr/bin/env bash
# A single-node Slurm on this machine, for trying 'pacelab run --executor slurm' and for its tests.
#
#   scripts/slurm-local.sh up   [--dir DIR]     start munged, slurmctld and slurmd (as root; Debian: slurm-wlm munge)
#   scripts/slurm-local.sh down [--dir DIR]     stop the daemons that 'up' started (by their PIDs) and remove DIR
#   scripts/slurm-local.sh env  [--dir DIR]     print the line that points Slurm's commands at this cluster
#
# Everything lives in DIR (default /run/pacelab-slurm): slurm.conf, the daemons' state, logs and PID files, and a
# munge socket of its own, so the cluster neither touches /etc/slurm nor collides with another one started with a
# different DIR (tests do that): the controller and the node daemon listen on free ports picked at start. 'up'
# prints 'export SLURM_CONF=DIR/slurm.conf'; sbatch, squeue, scontrol and 'pacelab run --executor slurm' use the
# cluster once that is set. The node is this machine (all its CPUs, one partition 'pacelab', the default).
#
# --hide PATH (up, for tests): the node daemon runs in a mount namespace of its own with an empty tmpfs over PATH,
# so jobs cannot see what is under PATH, as on a cluster whose nodes do not mount the submitting machine's disk.
set -euo pipefail

usage() {
  sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

(( $# >= 1 )) || usage
action=$1
shift
dir=${PACELAB_SLURM_DIR:-/run/pacelab-slurm}
hide=""
while (( $# > 0 )); do
  case "$1" in
    --dir) (( $# >= 2 )) || usage; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    --hide) (( $# >= 2 )) || usage; hide=$2; shift 2 ;;
    --hide=*) hide=${1#--hide=}; shift ;;
    *) echo "slurm-local.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac

fail() {
  echo "slurm-local.sh: $*" >&2
  exit 1
}

# ---- stopping ---------------------------------------------------------------------------------------------------

# stop NAME PIDFILE: SIGTERM to the PID in the file when that process is NAME, SIGKILL after 10 s
stop_daemon() {
  local name=$1 file=$2 pid comm
  [[ -s "$file" ]] || return 0
  pid=$(tr -dc '0-9' < "$file")
  [[ -n "$pid" ]] || return 0
  comm=$(cat "/proc/$pid/comm" 2>/dev/null || true)
  if [[ "$comm" != "$name" ]]; then
    rm -f "$file"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    [[ -d "/proc/$pid" ]] || break
    sleep 0.1
  done
  if [[ -d "/proc/$pid" ]]; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

# jobs still running: cancelled through the controller, so slurmd ends their steps the normal way
cancel_jobs() {
  local jobs
  jobs=$(SLURM_CONF="$dir/slurm.conf" timeout 10 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
  [[ -n "${jobs// /}" ]] || return 0
  # shellcheck disable=SC2086
  SLURM_CONF="$dir/slurm.conf" timeout 10 scancel $jobs 2>/dev/null || true
  for _ in $(seq 100); do
    [[ -z "$(SLURM_CONF="$dir/slurm.conf" timeout 10 squeue -h -o %A 2>/dev/null || true)" ]] && return 0
    sleep 0.1
  done
}

# descendants of a process, deepest last
descendants() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null || true); do
    echo "$child"
    descendants "$child"
  done
}

# job steps of this cluster left after the daemons stopped (slurmstepd inherits SLURM_CONF from slurmd), with
# the jobs' processes under them
stop_steps() {
  local pid p
  for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf"; then
      for p in $(descendants "$pid") "$pid"; do
        kill -KILL "$p" 2>/dev/null || true
      done
    fi
  done
}

down() {
  [[ -d "$dir" ]] || return 0
  [[ -f "$dir/slurm.conf" || -d "$dir/munge" ]] || fail "$dir does not look like a cluster started by slurm-local.sh (no slurm.conf); not touching it"
  if [[ -f "$dir/slurm.conf" ]]; then
    cancel_jobs
  fi
  stop_daemon slurmd "$dir/slurmd.pid"
  stop_steps
  stop_daemon slurmctld "$dir/slurmctld.pid"
  stop_daemon munged "$dir/munge/munged.pid"
  rm -rf "$dir"
}

# ---- starting ---------------------------------------------------------------------------------------------------

free_port() {
  local p
  for _ in $(seq 200); do
    p=$(( 20000 + RANDOM % 40000 ))
    if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then
      echo "$p"
      return 0
    fi
  done
  fail "found no free TCP port"
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $(( seconds * 10 ))); do
    if "$@" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

node_idle() {
  [[ "$(SLURM_CONF="$dir/slurm.conf" sinfo -h -N -o '%t' 2>/dev/null | head -n1)" == idle ]]
}

up() {
  [[ "$(id -u)" == 0 ]] || fail "needs root (slurmd runs jobs as their users, munged as user munge): run it with sudo"
  for p in munged slurmctld slurmd sinfo; do
    command -v "$p" >/dev/null 2>&1 || fail "$p is not installed: apt-get install -y slurm-wlm munge (as root)"
  done
  id munge >/dev/null 2>&1 || fail "there is no user 'munge': apt-get install -y munge creates it"
  if [[ -f "$dir/slurm.conf" ]] && node_idle; then
    echo "slurm-local.sh: a cluster is already running in $dir" >&2
    echo "export SLURM_CONF=$dir/slurm.conf"
    return 0
  fi
  if [[ -e "$dir" ]]; then
    down
  fi
  mkdir -p "$dir"
  chmod 0755 "$dir"
  trap 'echo "slurm-local.sh: start failed; logs were in $dir (now stopped)" >&2; tail -n 20 "$dir"/*.log "$dir"/munge/*.log 2>/dev/null >&2 || true; down' ERR

  # munge: the package's key, a socket of our own
  local key=/etc/munge/munge.key
  [[ -s "$key" ]] || fail "$key is missing: reinstall munge (apt-get install --reinstall munge) or create one with mungekey"
  mkdir -p "$dir/munge"
  chown munge:munge "$dir/munge"
  chmod 0755 "$dir/munge"
  runuser -u munge -- munged --socket="$dir/munge/munge.socket" --key-file="$key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"

  local host ctld_port d_port node
  host=$(hostname -s)
  ctld_port=$(free_port)
  d_port=$(free_port)
  while [[ "$d_port" == "$ctld_port" ]]; do d_port=$(free_port); done
  # the node as slurmd sees it (CPUs, sockets, cores, memory), under this cluster's node name
  node=$(slurmd -C | head -n1 | sed -e "s/^NodeName=[^ ]*/NodeName=$host/")
  mkdir -p "$dir/state" "$dir/spool"
  cat > "$dir/slurm.conf" <<EOF
# single-node Slurm written by pacelab's scripts/slurm-local.sh (stop it with: scripts/slurm-local.sh down --dir $dir)
ClusterName=pacelab
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=pacelab Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$dir/slurm.conf"
  wait_for "slurmctld" 30 scontrol ping || fail "slurmctld did not answer within 30 s (see $dir/slurmctld.log)"
  if [[ -n "$hide" ]]; then
    mkdir -p "$hide"
    unshare --mount --propagation private sh -c 'mount -t tmpfs -o size=1m pacelab-hidden "$1" && shift && exec "$@"' \
      sh "$hide" slurmd -f "$dir/slurm.conf"
  else
    slurmd -f "$dir/slurm.conf"
  fi
  wait_for "the node" 60 node_idle || fail "the node did not become idle within 60 s (see $dir/slurmd.log)"
  trap - ERR
  echo "slurm-local.sh: single-node Slurm up in $dir (node $host, partition pacelab, $(sinfo -h -o %c) CPUs)" >&2
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case "$action" in
  up) up ;;
  down) down ;;
  env) [[ -f "$dir/slurm.conf" ]] || fail "no cluster in $dir (start one with: $0 up --dir $dir)"; echo "export SLURM_CONF=$dir/slurm.conf" ;;
  *) usage ;;
esac
