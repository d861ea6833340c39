# Sourced by ./pacelab: trains the JVM's ahead-of-time caches once per build.
#
#   pacelab_train_aot AOT_DIR JAR COMMAND...
#
# Runs COMMAND (the jvm-cache training) under AOT_DIR/.lock when AOT_DIR/.trained is missing or older than JAR, and
# marks the build as tried (AOT_DIR/.trained) when COMMAND finished: with or without caches (a training that fails
# for a reason of the machine fails again, so one attempt per build), but not when a signal stopped it (an exit
# status above 128, e.g. a kill of the process): then the next command that trains tries again. Before, an
# interrupted training counted as the build's attempt and every later 'sim', 'server' and 'client' of that build ran
# without a cache, 0.65 CPU s slower per simulation (docs/benchmarks.md, "Simulator", 2026-12-04).
pacelab_train_aot() {
  local aot="$1" jar="$2" status
  shift 2
  mkdir -p "$aot" || return 0
  (
    flock 9
    if [[ ! -f "$aot/.trained" || "$jar" -nt "$aot/.trained" ]]; then
      echo "pacelab: training the JVM's ahead-of-time caches for server, client and sim (once per build) ..." >&2
      status=0
      "$@" >&2 || status=$?
      if (( status > 128 )); then
        echo "pacelab: the training was stopped by signal $((status - 128)); the next server, client, run or bench tries again." >&2
      else
        touch "$aot/.trained"
      fi
    fi
  ) 9>"$aot/.lock"
  return 0
}
