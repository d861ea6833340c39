#!/usr/bin/env bash
# The pacing issue's acceptance 2 through the emulated quic-steps bottleneck with the tap:
#   (a) CUBIC with rollback quiche shows the sawtooth (qlog cwnd timeline) and drops more than rollback off;
#   (b) pacing none with GSO 16 sends trains of at least 16 packets;
#   (c) interval and leaky-bucket pacing with the hybrid wait put >= 99 % of packets in trains of <= 2.
#
#   scripts/pacing-acceptance.sh OUT_DIR [SIZE]      (SIZE default 100MiB; about 40 s per run, 5 runs)
#
# Each run is scripts/pacing-run.sh (server, emulator with tap, client, pacelab analyze); the claims are checked
# by scripts/pacing_results.py from the analyzer's summary.json, timeline.csv and packets.csv. Runs one transfer
# at a time. Exit status 1 when a claim fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/pacing-acceptance.sh OUT_DIR [SIZE]" >&2; exit 2; }
out="$1"; size="${2:-100MiB}"
# shellcheck source=scripts/pacing-host.sh
source "$here/pacing-host.sh"

run() {
  local name="$1"; shift
  pacelab_wait_for_quiet
  echo "== $name: $*" >&2
  "$here/pacing-run.sh" "$out/$name" "$size" "$@" "${pacelab_server_host[@]}" > /dev/null
}

run rollback-off        --cc cubic --rollback off    --pacer interval     --quantum 2p --send hybrid
run rollback-quiche     --cc cubic --rollback quiche --pacer interval     --quantum 2p --send hybrid
run none-gso16          --cc cubic                   --pacer none         --gso 16
run interval-hybrid     --cc cubic                   --pacer interval     --quantum 2p --send hybrid
run leaky-bucket-hybrid --cc cubic                   --pacer leaky-bucket --quantum 2p --send hybrid

python3 "$here/pacing_results.py" check "$out"
