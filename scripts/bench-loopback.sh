#!/usr/bin/env bash
# Benchmark (issue 2, acceptance 7): unshaped loopback goodput of pacelab server -> pacelab client for a
# 1 GiB body, next to Debian ngtcp2 gtlsserver -> gtlsclient in the same run, alternating, as a ratio.
# Usage: scripts/bench-loopback.sh [repetitions=3] [bytes=1073741824] [extra pacelab options...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps="${1:-3}"; size="${2:-1073741824}"; shift $(( $# > 2 ? 2 : $# )) || true
extra=("$@")
command -v gtlsserver >/dev/null && command -v gtlsclient >/dev/null || { echo "needs ngtcp2-server and ngtcp2-client (scripts/install-peers.sh)" >&2; exit 2; }
work="$(mktemp -d)"; trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$here/pacelab" --version >/dev/null 2>&1   # build once
mkdir -p "$work/www" "$work/dl"
head -c "$size" /dev/zero > "$work/www/file"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 -subj /CN=localhost 2>/dev/null
"$here/pacelab" server --listen 127.0.0.1:24433 --pacer none "${extra[@]}" 2>"$work/pl-server.log" & sleep 3
gtlsserver -q -d "$work/www" 127.0.0.1 24444 "$work/key.pem" "$work/cert.pem" >"$work/ng-server.log" 2>&1 & sleep 1
now() { date +%s%N; }
pl=(); ng=()
for i in $(seq "$reps"); do
  s=$(now); "$here/pacelab" client -k --pacer none "${extra[@]}" "https://127.0.0.1:24433/bytes/$size" >/dev/null; e=$(now)
  pl+=("$(python3 -c "print(8*$size/(($e-$s)/1e9)/1e6)")")
  s=$(now); gtlsclient -q --exit-on-all-streams-close --max-data=4G --max-stream-data-bidi-local=4G --download "$work/dl" 127.0.0.1 24444 https://127.0.0.1:24444/file >/dev/null 2>&1; e=$(now)
  [[ "$(stat -c %s "$work/dl/file")" == "$size" ]] || { echo "ngtcp2 download incomplete" >&2; exit 1; }
  rm -f "$work/dl/file"
  ng+=("$(python3 -c "print(8*$size/(($e-$s)/1e9)/1e6)")")
  echo "rep $i: pacelab ${pl[-1]} Mbit/s, ngtcp2 ${ng[-1]} Mbit/s" >&2
done
python3 - "${pl[*]}" "${ng[*]}" <<'PY'
import statistics, sys
pl=[float(x) for x in sys.argv[1].split()]; ng=[float(x) for x in sys.argv[2].split()]
print(f"pacelab median {statistics.median(pl):.0f} Mbit/s (runs {', '.join(f'{x:.0f}' for x in pl)})")
print(f"ngtcp2  median {statistics.median(ng):.0f} Mbit/s (runs {', '.join(f'{x:.0f}' for x in ng)})")
print(f"ratio pacelab/ngtcp2 {statistics.median(pl)/statistics.median(ng):.2f}")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
