#!/usr/bin/env python3
"""Reads what `pacelab analyze` wrote for pacing runs (summary.json, timeline.csv, packets.csv) and the run.json of
scripts/pacing-run.sh.

    pacing_results.py check OUT_DIR     the acceptance claims of the pacing issue, PASS/FAIL with the numbers;
                                         writes OUT_DIR/acceptance.json, exits 1 when a claim fails
    pacing_results.py table OUT_DIR     one markdown row per configuration (mean ± population std over its
                                         repetitions OUT_DIR/<config>/<rep>/), for docs/benchmarks.md

Every number comes from the analyzer's output; nothing is measured here.
"""
import csv
import json
import math
import os
import sys


def load(run):
    with open(os.path.join(run, "summary.json")) as f:
        summary = json.load(f)
    run_json = os.path.join(run, "run.json")
    info = {}
    if os.path.exists(run_json):
        with open(run_json) as f:
            info = json.load(f)
    return summary, info


def metric(summary, key):
    v = summary.get(key)
    if v is None:
        raise SystemExit("%s: %s is null in summary.json (%s)" % (summary.get("capture"), key,
                                                                summary.get(key + "_reason", "no reason given")))
    return v


def cwnd_jumps(run):
    """Reductions and restores of the congestion window in the analyzer's qlog timeline: consecutive
    metrics_updated values that fall by 15 % or more, or rise by 15 % or more from above 50 000 bytes (CUBIC's
    own growth is per ACK and far smaller; a jump up is a rollback to a checkpoint)."""
    rows = []
    with open(os.path.join(run, "timeline.csv")) as f:
        for r in csv.DictReader(f):
            if r["congestion_window"]:
                rows.append(int(r["congestion_window"]))
    reductions = sum(1 for a, b in zip(rows, rows[1:]) if b <= a * 0.85)
    restores = sum(1 for a, b in zip(rows, rows[1:]) if b >= a * 1.15 and a > 50_000)
    return reductions, restores


def trains_at_least(run, n):
    """Share of the server's packets in trains of at least n packets (packets.csv, train_length per packet)."""
    total = hits = 0
    with open(os.path.join(run, "packets.csv")) as f:
        for r in csv.DictReader(f):
            if r["dir"] == "s2c" and r["train_length"]:
                total += 1
                hits += int(r["train_length"]) >= n
    return hits / total if total else 0.0


def check(out):
    results = []

    def claim(name, ok, detail):
        results.append({"claim": name, "pass": bool(ok), "detail": detail})
        print("%s  %s: %s" % ("PASS" if ok else "FAIL", name, detail))

    off, _ = load(os.path.join(out, "rollback-off"))
    quiche, _ = load(os.path.join(out, "rollback-quiche"))
    red_off, res_off = cwnd_jumps(os.path.join(out, "rollback-off"))
    red_q, res_q = cwnd_jumps(os.path.join(out, "rollback-quiche"))
    claim("rollback quiche shows the sawtooth",
          res_q >= 10 and red_q >= 3 * max(1, red_off),
          "cwnd reductions/restores in the qlog timeline: quiche %d/%d, off %d/%d" % (red_q, res_q, red_off, res_off))
    claim("rollback quiche drops more than off", metric(quiche, "drops") > metric(off, "drops"),
          "bottleneck drops: quiche %d, off %d" % (metric(quiche, "drops"), metric(off, "drops")))

    gso_run = os.path.join(out, "none-gso16")
    gso, _ = load(gso_run)
    share16 = trains_at_least(gso_run, 16)
    claim("pacing none with GSO 16 sends trains of 16 packets or more",
          metric(gso, "ptl_max") >= 16 and share16 >= 0.10,
          "longest train %d, %.1f %% of packets in trains >= 16" % (metric(gso, "ptl_max"), 100 * share16))

    for name in ("interval-hybrid", "leaky-bucket-hybrid"):
        run = os.path.join(out, name)
        if not os.path.exists(os.path.join(run, "summary.json")):
            continue
        s, _ = load(run)
        claim("%s puts >= 99 %% of packets in trains <= 2" % name, metric(s, "ptl_le2_share") >= 0.99,
              "%.2f %% in trains <= 2, %.2f %% sent alone, longest train %d" % (
                  100 * metric(s, "ptl_le2_share"), 100 * metric(s, "ptl1_share"), metric(s, "ptl_max")))

    tmp = os.path.join(out, ".acceptance.json.tmp")
    with open(tmp, "w") as f:
        json.dump(results, f, indent=1)
    os.replace(tmp, os.path.join(out, "acceptance.json"))
    return 0 if all(r["pass"] for r in results) else 1


def mean_std(values):
    values = [v for v in values if v is not None]
    if not values:
        return None, None
    m = sum(values) / len(values)
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def fmt(values, scale=1.0, digits=1):
    m, s = mean_std([None if v is None else v * scale for v in values])
    if m is None:
        return "–"
    return ("%." + str(digits) + "f ± %." + str(digits) + "f") % (m, s)


def table(out):
    print("| configuration | n | precision µs | p99 send delay µs | trains ≤ 2 % | trains ≤ 5 % | goodput Mbit/s (app) "
          "| drops | sender CPU s | load avg |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for config in sorted(os.listdir(out)):
        cdir = os.path.join(out, config)
        if not os.path.isdir(cdir):
            continue
        reps = sorted(d for d in os.listdir(cdir) if os.path.exists(os.path.join(cdir, d, "summary.json")))
        if not reps:
            continue
        runs = [load(os.path.join(cdir, r)) for r in reps]
        col = lambda k: [s.get(k) for s, _ in runs]
        loads = [float(i["loadavg_before"].split()[0]) for _, i in runs if "loadavg_before" in i]
        options = runs[0][1].get("server_options", config)
        print("| `%s` | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            options, len(runs), fmt(col("precision_us")), fmt(col("send_delay_p99_us")),
            fmt(col("ptl_le2_share"), 100, 2), fmt(col("ptl_le5_share"), 100, 2), fmt(col("goodput_app_mbps"), 1, 2),
            fmt(col("drops"), 1, 0), fmt([i.get("sender_cpu_s") for _, i in runs]), fmt(loads)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "table"):
        sys.exit("usage: pacing_results.py check|table OUT_DIR")
    sys.exit(check(sys.argv[2]) if sys.argv[1] == "check" else table(sys.argv[2]))
