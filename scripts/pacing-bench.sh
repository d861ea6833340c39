#!/usr/bin/env bash
# The pacing benchmark of docs/benchmarks.md: pacer x send strategy (CUBIC), then NewReno and BBR, through the
# emulated quic-steps bottleneck with the tap, each configuration REPS times.
#
#   scripts/pacing-bench.sh OUT_DIR [REPS] [SIZE] [CONFIG...]    (REPS default 3, SIZE default 100MiB)
#
# Writes OUT_DIR/<config>/<rep>/ (scripts/pacing-run.sh: summary.json, packets.csv, timeline.csv, run.json) and
# prints the markdown table of scripts/pacing_results.py. Give CONFIG names to run only those. One transfer at a
# time (about 40 s each); the host set-up is scripts/pacing-host.sh. Strategies the kernel cannot honour here
# (txtime, paced GSO) are tried once each and their refusal is recorded in OUT_DIR/refused.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/pacing-bench.sh OUT_DIR [REPS] [SIZE] [CONFIG...]" >&2; exit 2; }
out="$1"; reps="${2:-3}"; size="${3:-100MiB}"; shift $(( $# < 3 ? $# : 3 ))
only=("$@")
# shellcheck source=scripts/pacing-host.sh
source "$here/pacing-host.sh"

declare -a names=() options=()
config() { names+=("$1"); options+=("$2"); }
config none-park            "--pacer none"
config none-sendmmsg16      "--pacer none --sendmmsg 16"
config none-gso16           "--pacer none --gso 16"
for pacer in interval leaky-bucket token-bucket; do
  for wait in park park-tight hybrid spin; do
    config "$pacer-$wait" "--pacer $pacer --quantum 2p --send $wait"
  done
done
config interval-hybrid-1p     "--pacer interval --quantum 1p --send hybrid"
config leaky-bucket-hybrid-1p "--pacer leaky-bucket --quantum 1p --send hybrid"
config interval-hybrid-auto   "--pacer interval --send hybrid"
config interval-hybrid-gso16  "--pacer interval --send hybrid --gso 16"
config newreno-interval-hybrid "--cc newreno --pacer interval --quantum 2p --send hybrid"
config bbr-interval-hybrid     "--cc bbr --pacer interval --quantum 2p --send hybrid"
config bbr-interval-hybrid-auto "--cc bbr --pacer interval --send hybrid"
# pacing capped just under the bottleneck's payload rate (40 Mbit/s of 1494-byte frames carry 38.9 Mbit/s of UDP
# payload): the queue only grows in slow start
config interval-hybrid-cap388 "--pacer interval --quantum 2p --send hybrid --max-pacing-rate 38.8mbit"

wanted() {
  [[ ${#only[@]} -eq 0 ]] && return 0
  local n; for n in "${only[@]}"; do [[ "$n" == "$1" ]] && return 0; done; return 1
}

mkdir -p "$out"
for i in "${!names[@]}"; do
  name="${names[$i]}"
  wanted "$name" || continue
  read -r -a opts <<< "${options[$i]}"
  for rep in $(seq 1 "$reps"); do
    [[ -f "$out/$name/$rep/summary.json" ]] && continue
    pacelab_wait_for_quiet
    echo "== $name ($rep/$reps): ${options[$i]}" >&2
    "$here/pacing-run.sh" "$out/$name/$rep" "$size" "${opts[@]}" "${pacelab_server_host[@]}" > /dev/null \
      || echo "pacing-bench: $name repetition $rep failed (see $out/$name/$rep)" >&2
  done
done

# the kernel-dependent strategies: the server must refuse them here with its explanation
if wanted refused; then
  : > "$out/refused.txt"
  for opts in "--txtime --pacer interval" "--txtime --txtime-clock tai --pacer interval" \
              "--gso 16 --txtime --paced-gso --pacer interval"; do
    read -r -a o <<< "$opts"
    status=0
    said="$(timeout 20 "$here/../pacelab" server --listen 127.0.0.1:0 "${o[@]}" 2>&1)" || status=$?
    { echo "\$ pacelab server $opts"; grep -v JAVA_TOOL_OPTIONS <<< "$said"
      echo "(exit $status; 124 = still running after 20 s: the host honours it)"; echo; } >> "$out/refused.txt"
  done
fi

python3 "$here/pacing_results.py" table "$out"
