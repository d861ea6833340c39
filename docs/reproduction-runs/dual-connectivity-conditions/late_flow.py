#!/usr/bin/env python3
"""The late dual-connected flow's congestion events against the single-path flows' (docs/reproduction.md, fifth set).

  python3 late_flow.py reduce RUN_DIR NAME [BATCH]   # a 'pacelab sim --qlog on' run of flows dc, a, b: writes
                                                     # results/late-flow-qlogs/NAME.json from RUN_DIR/qlog/server-*.sqlog
  python3 late_flow.py                               # the tables quoted in docs/reproduction.md

Per flow the reduction keeps its connection's start, every entry to recovery (qlog congestion_state_updated, new
"recovery": one congestion event, RFC 9002 §7.3.2), every lost packet with its time and the path the splitter sent it
on (the splitter changes path every BATCH packets a flow sends; counted here as the flow's packet_sent events, so
coalesced handshake packets can shift the count by one or two), and the mean congestion window per second (packets of
1452 bytes). The dual-connected flow is the one whose connection started last when NAME starts with "late", else the
first (flows start in --flows order, dc first).
"""
import bisect, collections, glob, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "results", "late-flow-qlogs")
NEAR_S = 0.6   # two flows' congestion events within this many seconds count as the same drop episode


def reduce(run, name, batch):
    flows = []
    for f in sorted(glob.glob(os.path.join(run, "qlog", "server-*.sqlog"))):
        start, n, ordinal, events, lost, cw = None, 0, {}, [], [], collections.defaultdict(list)
        for line in open(f, "rb"):
            line = line.strip(b"\x1e \n")
            if not line.startswith(b'{"time"'):
                continue
            if b"transport:packet_sent" in line:
                h = json.loads(line)["data"]["header"]
                if h.get("packet_type") == "1RTT":
                    ordinal[h["packet_number"]] = n
                n += 1
            elif b"connection_started" in line and start is None:
                start = json.loads(line)["time"] / 1000
            elif b"congestion_state_updated" in line:
                e = json.loads(line)
                if e["data"]["new"] == "recovery":
                    events.append(round(e["time"] / 1000, 4))
            elif b"recovery:packet_lost" in line:
                e = json.loads(line)
                o = ordinal.get(e["data"]["header"]["packet_number"])
                lost.append([round(e["time"] / 1000, 4), None if o is None else (o // batch) % 2])
            elif b"metrics_updated" in line and b"congestion_window" in line:
                e = json.loads(line)
                cw[int(e["time"] / 1000)].append(e["data"]["congestion_window"] / 1452)
        flows.append({"start": start, "events": events, "lost": lost,
                      "cwnd": {k: round(sum(v) / len(v), 1) for k, v in cw.items()}})
    summary = json.load(open(os.path.join(run, "dc-summary.json")))
    os.makedirs(OUT, exist_ok=True)
    json.dump({"run": name, "batch": batch, "jfi": summary["jfi"],
               "flow_mbps": [f["throughput_mbps"] for f in summary["flows"]], "flows": flows},
              open(os.path.join(OUT, name + ".json"), "w"))
    print(name, [(round(f["start"], 3), len(f["events"]), len(f["lost"])) for f in flows])


def near(t, xs):
    return any(abs(t - u) <= NEAR_S for u in xs)


def report():
    for file in sorted(os.listdir(OUT)):
        r = json.load(open(os.path.join(OUT, file)))
        fl = sorted(r["flows"], key=lambda f: f["start"])
        dc = fl[-1] if r["run"].startswith("late") else fl[0]
        a, b = [f for f in fl if f is not dc]
        print(f"## {r['run']}: JFI {r['jfi']:.3f}, Mbit/s dc {r['flow_mbps'][0]:.2f}, a {r['flow_mbps'][1]:.2f}, "
              f"b {r['flow_mbps'][2]:.2f}; congestion events dc {len(dc['events'])}, single-path {len(a['events'])} "
              f"and {len(b['events'])}")
        cats = collections.Counter("both" if near(t, a["events"]) and near(t, b["events"]) else
                                   "one" if near(t, a["events"]) or near(t, b["events"]) else "neither"
                                   for t in dc["events"])
        print(f"   dc events within {NEAR_S} s of an event of both single-path flows / of one / of neither: "
              f"{cats['both']} / {cats['one']} / {cats['neither']}")
        paths = collections.Counter()
        for t, p in dc["lost"]:
            i = bisect.bisect_right(dc["events"], t + 1e-6) - 1
            if i >= 0 and p is not None:
                paths[i] = paths.get(i, 0) | (1 << p)
        per = collections.Counter(paths.values())
        print(f"   dc events whose losses were on path a only / b only / both: {per[1]} / {per[2]} / {per[3]}")
        for lo, hi in [(0, 30), (30, 60), (60, 120), (120, 190)]:
            ea = [t for t in a["events"] if lo <= t < hi]
            eb = [t for t in b["events"] if lo <= t < hi]
            ed = [t for t in dc["events"] if lo <= t < hi]
            sync = (sum(near(t, eb) for t in ea) + sum(near(t, ea) for t in eb)) / max(1, len(ea) + len(eb))
            cw = lambda f: [v for k, v in f["cwnd"].items() if lo <= int(k) < hi]
            mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
            print(f"   {lo:3d}-{min(hi, 180):3d} s: a and b in step {sync:.2f}; events dc/a/b {len(ed)}/{len(ea)}/{len(eb)}; "
                  f"cwnd dc {mean(cw(dc)):.0f}, a {mean(cw(a)):.0f}, b {mean(cw(b)):.0f} packets")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "reduce":
        reduce(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 100)
    else:
        report()
