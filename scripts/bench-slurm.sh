#!/usr/bin/env bash
# Benchmark of the Slurm executor against the local one: the same simulated sweep (2 controllers x 2 rates x 5
# seeds = 20 runs through the QUIC Steps link) run by 'pacelab run' with its defaults, locally and through a
# single-node Slurm on this machine (default packing, and all 20 runs in one array task: --runs-per-task 20),
# alternating, N times each. Per campaign: wall time of the whole command, CPU
# seconds (the command and its children; for Slurm also the array tasks, from their logs), the load average before
# and after; then the overhead per run. Needs root (it starts its own Slurm with scripts/slurm-local.sh and stops it).
#
#   scripts/bench-slurm.sh [N] [SIZE]      defaults: 3 campaigns each, 10MiB per run
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n=${1:-3}
size=${2:-10MiB}
[[ "$(id -u)" == 0 ]] || { echo "bench-slurm.sh: needs root (it starts a single-node Slurm)" >&2; exit 2; }
work=$(mktemp -d /tmp/pacelab-bench-slurm.XXXXXX)
chmod 0755 "$work"
cleanup() {
  "$here/scripts/slurm-local.sh" down --dir "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
conf=$("$here/scripts/slurm-local.sh" up --dir "$work/cluster")
eval "$conf"
export SLURM_CONF

cat > "$work/sweep.yaml" <<EOF
name: bench-slurm
mode: sim
link: {preset: quic-steps}
transfer: {size: $size}
repetitions: 5
seed: 1
implementations:
  - {name: pacelab, server: pacelab, client: pacelab, options: {pacer: interval}}
sweep:
  cc: [cubic, newreno]
  link.down.rate: [20mbit, 40mbit]
EOF
"$here/pacelab" --version >/dev/null   # builds the jar first if needed, outside the measurement
# then the jar itself, with the launcher's JVM flags: an edit of the sources meanwhile must not rebuild it mid-benchmark
# shellcheck source=scripts/find-jdk.sh
source "$here/scripts/find-jdk.sh"
pacelab_find_jdk
# the JVM options every pacelab JVM runs with (read as the ./pacelab launcher and cli's Launchers read them)
# shellcheck source=scripts/jvm-options.sh
source "$here/scripts/jvm-options.sh"
pacelab_jvm_options "$here/cli/src/main/resources/org/pacelab/cli/jvm-options" || exit 2
pacelab=("$JAVA_HOME/bin/java" "${PACELAB_JVM_OPTIONS[@]}" -jar "$here/cli/target/pacelab.jar")

load() { cut -d' ' -f1 /proc/loadavg; }

# one campaign: prints "wall user+sys load_before load_after"
campaign() {
  local out=$1
  shift
  local before after t
  before=$(load)
  /usr/bin/time -o "$out.time" -f '%e %U %S' "${pacelab[@]}" run "$work/sweep.yaml" --out "$out" --no-install --no-report "$@" \
    >"$out.log" 2>&1 || true
  t=$(tail -n1 "$out.time")
  after=$(load)
  grep -q "20 of 20 runs finished" "$out.log" || { echo "bench-slurm.sh: campaign $out failed:" >&2; tail "$out.log" >&2; exit 1; }
  awk -v t="$t" -v b="$before" -v a="$after" 'BEGIN { split(t, f, " "); printf "%s %.1f %s %s\n", f[1], f[2] + f[3], b, a }'
}

echo "| # | executor | wall s | CPU s (command) | CPU s (array tasks) | task wall s (sum) | JVM start + planning s (sum) | load before → after |"
echo "|---|---|---|---|---|---|---|---|"
for i in $(seq "$n"); do
  res=$(campaign "$work/local-$i")
  read -r w c b a <<<"$res"
  echo "| $i | local | $w | $c | – | – | – | $b → $a |"
  for variant in default one-task; do
    if [[ $variant == default ]]; then
      res=$(campaign "$work/slurm-$i-$variant" --executor slurm)
    else
      res=$(campaign "$work/slurm-$i-$variant" --executor slurm --runs-per-task 20)
    fi
    read -r w c b a <<<"$res"
    done_lines=$(cat "$work/slurm-$i-$variant"/slurm/*/task-*.log | grep "slurm-task: done")
    task_cpu=$(sed -E 's/.* ([0-9.]+) CPU s.*/\1/' <<<"$done_lines" | awk '{ s += $1 } END { printf "%.1f", s }')
    task_start=$(sed -E 's/.*\(([0-9.]+) s of it before.*/\1/' <<<"$done_lines" | awk '{ s += $1 } END { printf "%.1f", s }')
    task_wall=$(sed -E 's/.* ([0-9.]+) s after the JVM started.*/\1/' <<<"$done_lines" | awk '{ s += $1 } END { printf "%.1f", s }')
    echo "| $i | slurm ($variant, $(wc -l <<<"$done_lines") tasks) | $w | $c | $task_cpu | $task_wall | $task_start | $b → $a |"
  done
done
