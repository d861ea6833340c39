# Host set-up shared by scripts/pacing-acceptance.sh and scripts/pacing-bench.sh (sourced, not run).
#
# On a shared two-core machine other processes delay every thread of the three JVMs by milliseconds. These
# defaults keep the measurement about pacing: no garbage collection during a 100 MiB run (a young generation of
# 512 MiB, touched at start), the sender's event loop SCHED_FIFO above the emulator's relay thread, and a JIT
# warm-up of the sender (`pacelab server --warmup`: 200 MiB over loopback in the same JVM before it listens; a cold
# sender's first seconds dominate the precision). Override any of them through the environment.
export JAVA_TOOL_OPTIONS="${PACELAB_BENCH_JVM-"-Xms640m -Xmn512m -XX:+AlwaysPreTouch"}"
export PACELAB_EMULATE_OPTS="${PACELAB_EMULATE_OPTS-"--realtime"}"
# The receiver stays at normal priority: as a third SCHED_FIFO thread on two cores it waits behind the sender's
# spin and the relay, and its late acknowledgements stall the sender (an A/B pair on a quiet machine, interval
# pacer + hybrid: goodput 36.8 vs 37.2 Mbit/s, precision 131 vs 20 µs, FIFO 5 vs normal priority).
export PACELAB_CLIENT_OPTS="${PACELAB_CLIENT_OPTS-""}"
read -r -a pacelab_server_host <<< "${PACELAB_SERVER_HOST_OPTS-"--realtime --realtime-priority 30 --warmup 200MiB"}"

# Waits (at most PACELAB_LOAD_WAIT seconds, default 0) while the 1-minute load average exceeds PACELAB_MAX_LOAD.
pacelab_wait_for_quiet() {
  local max="${PACELAB_MAX_LOAD:-}" waited=0 limit="${PACELAB_LOAD_WAIT:-0}"
  [[ -z "$max" ]] && return 0
  while awk -v m="$max" '{exit !($1 > m)}' /proc/loadavg && (( waited < limit )); do
    sleep 10; waited=$((waited + 10))
  done
}
