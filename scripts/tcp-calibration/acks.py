# What the sender's stack sees, from run.sh's SNDCAP capture on the sender's TUN inside pl-server (kernel timestamps:
# data when the stack sent it, ACKs when the emulator's write reached the stack). Prints (1) data packets sent per
# 40 ms from the first data packet (slow start: the study's tap shows 8, 20, 40, 80, 144, then ~133 = line rate, in
# every repetition), (2) data trains at the sender (gap < 0.1 ms, as the study counts them; the study: > 99.9 % of
# packets in trains <= 5), (3) the ACK clock: inter-ACK gaps while data is outstanding — the share under 50 us
# (compressed: several ACKs released at once) and every gap over 2 ms (hystart_ack_delta_us: one such gap ends
# HyStart's ACK train for that round), in slow start (first 1 s) and after.
# With a second capture (the receiver's TUN): the same gap shares for data arriving at the receiver and ACKs leaving
# it, which tells the downlink's delivery, the receiver's ACKing and the uplink's delivery apart.
import subprocess
import sys
from collections import Counter

out = subprocess.run(['tshark', '-r', sys.argv[1], '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'ip.src', '-e',
                      'tcp.len'], capture_output=True, text=True).stdout
data, acks = [], []
for line in out.splitlines():
    f = line.split('\t')
    if len(f) < 3:
        continue
    t = float(f[0])
    if f[1] == '10.77.1.1':
        if int(f[2] or 0) > 0:
            data.append(t)
    else:
        acks.append(t)
t0 = data[0]
bins = Counter(int((t - t0) / 0.04) for t in data)
print("sent per 40 ms:", [bins[i] for i in range(0, 30)])
trains, n = [], 1
for a, b in zip(data, data[1:]):
    if b - a < 1e-4:
        n += 1
    else:
        trains.append(n)
        n = 1
trains.append(n)
le5 = sum(x for x in trains if x <= 5) / len(data)
print(f"sender trains: {100 * le5:.2f} % of packets in trains <= 5, longest {max(trains)}")
acks = [a for a in acks if t0 <= a <= data[-1]]
for name, lo, hi in (("slow start (0-1 s)", 0, 1), ("after (1 s-end)", 1, 1e9)):
    g = [(b - a, a - t0) for a, b in zip(acks, acks[1:]) if lo <= a - t0 < hi]
    if not g:
        continue
    small = sum(1 for x, _ in g if x < 5e-5) / len(g)
    big = [(round(t, 3), round(x * 1e3, 1)) for x, t in g if x > 0.002]
    print(f"ACKs {name}: {len(g)} gaps, {100 * small:.1f} % under 50 us, {len(big)} over 2 ms"
          + (f": {big[:12]}" if lo == 0 else f", largest {max(x for x, _ in g) * 1e3:.1f} ms"))

if len(sys.argv) > 2:
    out = subprocess.run(['tshark', '-r', sys.argv[2], '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'ip.src', '-e',
                          'tcp.len'], capture_output=True, text=True).stdout
    rd, ra = [], []
    for line in out.splitlines():
        f = line.split('\t')
        if len(f) < 3:
            continue
        (rd if f[1] == '10.77.1.1' and int(f[2] or 0) > 0 else ra).append(float(f[0]))
    r0 = rd[0]
    for what, ts in (("data arriving at the receiver", rd), ("ACKs leaving the receiver", ra)):
        for name, lo, hi in (("0-1 s", 0, 1), ("1 s-end", 1, 1e9)):
            g = [b - a for a, b in zip(ts, ts[1:]) if lo <= a - r0 < hi]
            if g:
                print(f"{what} {name}: {len(g)} gaps, {100 * sum(1 for x in g if x < 5e-5) / len(g):.1f} % under 50 us,"
                      f" {sum(1 for x in g if x > 0.002)} over 2 ms, largest {max(g) * 1e3:.1f} ms")

    # the uplink's own timing: each ACK's trip from the receiver's TUN to the sender's (same host clock, matched by
    # the IP ID); the link model gives every ACK exactly 20 ms, so the spread is the emulator's delivery error
    def ids(cap):
        out = subprocess.run(['tshark', '-r', cap, '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'ip.src', '-e',
                              'ip.id', '-e', 'tcp.len'], capture_output=True, text=True).stdout
        m = {}
        for line in out.splitlines():
            f = line.split('\t')
            if len(f) >= 4 and f[1] == '10.77.2.1':
                m.setdefault(int(f[2], 16), float(f[0]))
        return m
    sent, got = ids(sys.argv[2]), ids(sys.argv[1])
    for name, lo, hi in (("0-1 s", 0, 1), ("1 s-end", 1, 1e9)):
        d = sorted((got[k] - v) * 1e3 for k, v in sent.items() if k in got and lo <= v - r0 < hi)
        if d:
            q = lambda p: d[min(len(d) - 1, int(p * len(d)))]
            print(f"ACK uplink delay {name} (model: 20 ms): n {len(d)}, p50 {q(0.5):.2f}, p99 {q(0.99):.2f},"
                  f" p99.9 {q(0.999):.2f}, max {d[-1]:.2f} ms; over 22 ms: {100 * sum(1 for x in d if x > 22) / len(d):.2f} %")
