#!/usr/bin/env bash
# One transfer through the emulated quic-steps bottleneck, with the tap, then `pacelab analyze`.
#
#   scripts/pacing-run.sh OUT_DIR SIZE [SERVER OPTIONS...]
#
# Environment: PACELAB_EMULATE_OPTS and PACELAB_CLIENT_OPTS add options to the emulator and the client;
# PACELAB_RUN_TIMEOUT (seconds, default 300) bounds the client.
#
# Starts `pacelab server` (with the given options, qlog and key log), `pacelab emulate --preset quic-steps`
# in front of it (tap before the bottleneck, event log), and `pacelab client` downloading /bytes/SIZE through
# the emulator; then stops server and emulator and writes OUT_DIR/summary.json (plus packets.csv and
# timeline.csv) with `pacelab analyze`. OUT_DIR also gets run.json: the options, the sender's CPU time
# (user + system of the server process while the client ran) and the load average.
# Runs one transfer at a time; never start several of these in parallel on a shared machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pacelab="$here/pacelab"
if [[ $# -lt 2 ]]; then
  echo "usage: scripts/pacing-run.sh OUT_DIR SIZE [SERVER OPTIONS...]" >&2
  exit 2
fi
out="$1"; size="$2"; shift 2
server_opts=("$@")
emulate_opts=()
if [[ -n "${PACELAB_EMULATE_OPTS:-}" ]]; then
  read -r -a emulate_opts <<< "$PACELAB_EMULATE_OPTS"
fi
client_opts=()
if [[ -n "${PACELAB_CLIENT_OPTS:-}" ]]; then
  read -r -a client_opts <<< "$PACELAB_CLIENT_OPTS"
fi
timeout_s="${PACELAB_RUN_TIMEOUT:-300}"

bytes="$(python3 - "$size" <<'PY'
import re, sys
m = re.fullmatch(r"(\d+)(b|kib|mib|gib|kb|mb|gb)?", sys.argv[1].strip().lower())
if not m:
    sys.exit("pacing-run: SIZE '%s' is not a size; write e.g. 100MiB, 10MiB, 500000" % sys.argv[1])
mult = {None: 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "kb": 1000, "mb": 10**6, "gb": 10**9}
print(int(m.group(1)) * mult[m.group(2)])
PY
)"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/qlog" "$out"/*.pcapng "$out"/*.log "$out"/*.json "$out"/*.csv
mkdir -p "$out/qlog"

# build once (the launcher rebuilds only when sources changed) and train the JVM's AOT cache of server and client
# (once per build), so no process below pays for either
"$pacelab" client --version > /dev/null

# free ports chosen by the kernel
read -r emu_port srv_port < <(python3 - <<'EOF'
import socket
s1 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s1.bind(("127.0.0.1", 0))
s2 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s2.bind(("127.0.0.1", 0))
print(s1.getsockname()[1], s2.getsockname()[1])
EOF
)

pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill -TERM "$p" 2> /dev/null || true
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2> /dev/null || true
  done
}
trap cleanup EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

"$pacelab" server --listen "127.0.0.1:$srv_port" --qlog-dir "$out/qlog" --keylog "$out/keys.log" \
  "${server_opts[@]}" 2> "$out/server.log" &
server_pid=$!; pids+=("$server_pid")
"$pacelab" emulate --preset quic-steps --listen "127.0.0.1:$emu_port" --to "127.0.0.1:$srv_port" \
  --tap "$out/tap.pcapng" --log "$out/events.log" "${emulate_opts[@]}" > "$out/emulate.log" 2>&1 &
emu_pid=$!; pids+=("$emu_pid")

# the server listens after its warm-up (--warmup: up to 30 s), so wait up to 120 s
ready=0
for _ in $(seq 1200); do
  if grep -q 'listening' "$out/server.log" 2> /dev/null && [[ -n "$(ss -Hlnu "sport = :$emu_port")" ]]; then
    ready=1
    break
  fi
  if ! kill -0 "$server_pid" 2> /dev/null; then
    echo "pacing-run: the server stopped:" >&2; cat "$out/server.log" >&2; exit 1
  fi
  if ! kill -0 "$emu_pid" 2> /dev/null; then
    echo "pacing-run: the emulator stopped:" >&2; cat "$out/emulate.log" >&2; exit 1
  fi
  sleep 0.1
done
if [[ $ready -ne 1 ]]; then
  echo "pacing-run: the server or the emulator was not ready after 120 s:" >&2; cat "$out/server.log" "$out/emulate.log" >&2; exit 1
fi

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
cpu_before="$(cpu_ticks "$server_pid")"
client_rc=0
"$pacelab" client -k --timeout "${timeout_s}s" --json "$out/client.json" "${client_opts[@]}" \
  "https://127.0.0.1:$emu_port/bytes/$bytes" > "$out/client.log" 2>&1 || client_rc=$?
cpu_after="$(cpu_ticks "$server_pid")"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
server_alive=1
kill -0 "$server_pid" 2> /dev/null || server_alive=0
cleanup
pids=()

if [[ $client_rc -ne 0 ]]; then
  echo "pacing-run: the client failed (exit $client_rc):" >&2
  cat "$out/client.log" >&2
  [[ $server_alive -eq 1 ]] || { echo "server log:" >&2; cat "$out/server.log" >&2; }
  exit 1
fi

"$pacelab" analyze "$out/tap.pcapng" --keylog "$out/keys.log" --qlog "$out/qlog" --client-log "$out/client.json" \
  --events "$out/events.log" --out "$out" > "$out/analyze.log" 2>&1

hz="$(getconf CLK_TCK)"
python3 - "$out" "$hz" "$cpu_before" "$cpu_after" "$load_before" "$load_after" "${server_opts[@]}" <<'EOF'
import json, os, sys
out, hz, before, after, lb, la = sys.argv[1:7]
opts = sys.argv[7:]
run = {"server_options": " ".join(opts), "sender_cpu_s": (int(after) - int(before)) / int(hz),
       "loadavg_before": lb, "loadavg_after": la}
tmp = os.path.join(out, ".run.json.tmp")
with open(tmp, "w") as f:
    json.dump(run, f, indent=1)
os.replace(tmp, os.path.join(out, "run.json"))
EOF
echo "$out"
