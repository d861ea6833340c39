#!/bin/bash
# TCP calibration on the quic-steps bottleneck (issue 13; docs/benchmarks.md "TCP/TLS calibration"): kernel TCP from a
# plain Python sender in pl-server to a Python receiver in pl-client through 'pacelab netns up', tapped at the
# server's side, then drops per loss episode and data packets per ACK (ana.py). Root; uses the fixed pl-* names, so
# it waits while another lab holds them.
# usage: run.sh OUTDIR [command to run in the server namespace first]...
# env: CC (cubic), SIZE (bytes, 100 MiB), DOWN (--down overrides), PRESET (quic-steps), RPRIO / SPRIO (a prefix for
#      the receiver / sender, e.g. "chrt -f 20"), PACE (bytes/s: SO_MAX_PACING_RATE on the sender's socket, which
#      turns on the kernel's own TCP pacing as fq would), PACELAB (the launcher, default ./pacelab of this checkout),
#      EMUOPTS (more options for 'netns up', e.g. "--kernel-qdisc down=tbf"), SNDCAP=1 (also capture at the sender's
#      TUN inside pl-server and the receiver's in pl-client, kernel timestamps: the ACK spacing the sender sees,
#      data spacing the receiver sees; sender.pcap, receiver.pcap; 128 MiB capture buffers: with tcpdump's default
#      one, tens of thousands of packets were lost under load, which shows up as false gaps), and always: the
#      sender namespace's HyStart counters (nstat TcpExtTCPHystart*); SSLOG=1: ss -ti of the connection every 10 ms
#      for the first 4 s (ss.txt: cwnd/ssthresh at slow-start exit; adds normal-priority load in slow start), CPU steal and load before/after; WARM (bytes: a first
#      transfer of that size through the lab before the measured one, so that the emulator JVM's code is compiled
#      when the measured slow start crosses it; TCP's per-destination metrics are flushed and not saved, so the
#      measured connection starts as a fresh one)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
D=$1; shift
rm -rf "$D"; mkdir -p "$D"
SIZE=${SIZE:-104857600}
PACELAB=${PACELAB:-$here/../../pacelab}
for i in $(seq 1 600); do ip netns list | grep -q "^pl-" || break; sleep 1; done
L0=$(cut -d' ' -f1-3 /proc/loadavg)
$PACELAB netns up --preset "${PRESET:-quic-steps}" ${DOWN:+--down "$DOWN"} ${EMUOPTS:-} --realtime --tap "$D/tap.pcapng" --seed 1 \
    > "$D/emu.out" 2> "$D/emu.err" &
EMU=$!
trap 'kill -TERM $EMU 2>/dev/null' EXIT
for i in $(seq 1 240); do grep -q "^ready:" "$D/emu.out" 2>/dev/null && break; sleep 0.5; done
export CC="${CC:-cubic}"   # send.py sets it on its socket
for cmd in "$@"; do ip netns exec pl-server bash -c "$cmd" >> "$D/setup" 2>&1; done
ip netns exec pl-server sysctl -q -w net.ipv4.tcp_no_metrics_save=1
if [ -n "${WARM:-}" ]; then
    ip netns exec pl-server python3 "$here/send.py" 5202 "$WARM" 2> "$D/warm-send.err" & WP=$!
    for i in $(seq 1 100); do ip netns exec pl-server ss -ltn | grep -q 5202 && break; sleep 0.2; done
    ip netns exec pl-client ${RPRIO:-} timeout 300 python3 "$here/recv.py" 5202 "$WARM" > "$D/warm-recv.out"
    wait $WP
    ip netns exec pl-server ip tcp_metrics flush all 2>/dev/null
    sleep 2
fi
ip netns exec pl-server nstat -az | grep -E 'Hystart' > "$D/nstat-before.txt"   # absolute: the warm-up's are subtracted
if [ -n "${SNDCAP:-}" ]; then
    ip netns exec pl-server tcpdump -i pl-tun-s -s 80 -B 131072 -w "$D/sender.pcap" -U tcp port 5201 2> "$D/tcpdump.err" & TD=$!
    ip netns exec pl-client tcpdump -i pl-tun-c -s 80 -B 131072 -w "$D/receiver.pcap" -U tcp port 5201 2> "$D/tcpdump-c.err" & TC=$!
    sleep 1
fi
S0=$(head -1 /proc/stat)
[ -n "${SSLOG:-}" ] && ( for i in $(seq 1 400); do echo "t=$(date +%s.%N)"; ip netns exec pl-server ss -tin state established '( sport = :5201 )' | tail -n +2; sleep 0.01; done > "$D/ss.txt" 2>&1 ) & SS=${!:-}
ip netns exec pl-server ${SPRIO:-} python3 "$here/send.py" 5201 "$SIZE" 2> "$D/send.err" & SP=$!
for i in $(seq 1 100); do ip netns exec pl-server ss -ltn | grep -q 5201 && break; sleep 0.2; done
ip netns exec pl-client ${RPRIO:-} timeout 600 python3 "$here/recv.py" 5201 "$SIZE" > "$D/recv.out"
wait $SP
sleep 0.5
[ -n "${SSLOG:-}" ] && { kill $SS 2>/dev/null; wait $SS 2>/dev/null; }
[ -n "${SNDCAP:-}" ] && { kill -INT $TD $TC; wait $TD $TC; }
S1=$(head -1 /proc/stat)
ip netns exec pl-server nstat -az | grep -E 'Hystart|TCPLossProbes|TcpRetransSegs|TCPSlowStartRetrans' > "$D/nstat.txt"
echo "stat_before: $S0" >> "$D/nstat.txt"; echo "stat_after: $S1" >> "$D/nstat.txt"
kill -TERM $EMU; wait $EMU; trap - EXIT
L1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$D load_start=$L0 load_end=$L1 $(cat "$D/send.err") $(cat "$D/recv.out")"
grep -E "^down|lateness" "$D/emu.out"
python3 "$here/ana.py" "$D/tap.pcapng"
grep -E 'Hystart' "$D/nstat.txt" | awk 'NR==FNR {b[$1]=$2; next} {printf "%s=%s ", $1, $2-b[$1]} END {print ""}' "$D/nstat-before.txt" -
[ -n "${SNDCAP:-}" ] && python3 "$here/acks.py" "$D/sender.pcap" "$D/receiver.pcap"
