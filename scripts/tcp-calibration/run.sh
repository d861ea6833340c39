#!/bin/bash
# TCP calibration on the quic-steps bottleneck (issue 13; docs/benchmarks.md "TCP/TLS calibration"): kernel TCP from a
# plain Python sender in pl-server to a Python receiver in pl-client through 'pacelab netns up', tapped at the
# server's side, then drops per loss episode and data packets per ACK (ana.py). Root; uses the fixed pl-* names, so
# it waits while another lab holds them.
# usage: run.sh OUTDIR [command to run in the server namespace first]...
# env: CC (cubic), SIZE (bytes, 100 MiB), DOWN (--down overrides), PRESET (quic-steps), RPRIO / SPRIO (a prefix for
#      the receiver / sender, e.g. "chrt -f 20"), PACE (bytes/s: SO_MAX_PACING_RATE on the sender's socket, which
#      turns on the kernel's own TCP pacing as fq would), PACELAB (the launcher, default ./pacelab of this checkout)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
D=$1; shift
rm -rf "$D"; mkdir -p "$D"
SIZE=${SIZE:-104857600}
PACELAB=${PACELAB:-$here/../../pacelab}
for i in $(seq 1 600); do ip netns list | grep -q "^pl-" || break; sleep 1; done
L0=$(cut -d' ' -f1-3 /proc/loadavg)
$PACELAB netns up --preset "${PRESET:-quic-steps}" ${DOWN:+--down "$DOWN"} --realtime --tap "$D/tap.pcapng" --seed 1 \
    > "$D/emu.out" 2> "$D/emu.err" &
EMU=$!
trap 'kill -TERM $EMU 2>/dev/null' EXIT
for i in $(seq 1 240); do grep -q "^ready:" "$D/emu.out" 2>/dev/null && break; sleep 0.5; done
export CC="${CC:-cubic}"   # send.py sets it on its socket
for cmd in "$@"; do ip netns exec pl-server bash -c "$cmd" >> "$D/setup" 2>&1; done
ip netns exec pl-server ${SPRIO:-} python3 "$here/send.py" 5201 "$SIZE" 2> "$D/send.err" & SP=$!
for i in $(seq 1 100); do ip netns exec pl-server ss -ltn | grep -q 5201 && break; sleep 0.2; done
ip netns exec pl-client ${RPRIO:-} timeout 600 python3 "$here/recv.py" 5201 "$SIZE" > "$D/recv.out"
wait $SP
sleep 0.5
kill -TERM $EMU; wait $EMU; trap - EXIT
L1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$D load_start=$L0 load_end=$L1 $(cat "$D/send.err") $(cat "$D/recv.out")"
grep -E "^down|lateness" "$D/emu.out"
python3 "$here/ana.py" "$D/tap.pcapng"
