#!/usr/bin/env python3
"""Per-run results and the tables of docs/reproduction.md for the campaigns stored as CSV in results/.

  python3 tables.py extract STORE_DIR...   # after 'pacelab report --campaign STORE_DIR --export csv': writes
                                           # results/NAME.csv (one row per run) from STORE_DIR/export/
  python3 tables.py                        # mean ± sample std, range and seeds at or above 0.99 per configuration
  python3 tables.py paired NAME A B        # results/NAME.csv: configuration A's dc-flow Mbit/s minus B's, paired by
                                           # seed (mean ± sample std, in how many seeds A is ahead, mean % of B)
  python3 tables.py reordering STORE_DIR...  # after the export too, from the run directories a store kept
                                           # (collect: keep: all): results/reordering/NAME.csv, one row per flow of
                                           # each run with its PDCP receiver's counts from dc-summary.json
  python3 tables.py reordering NAME        # mean per configuration and flow mode of results/reordering/NAME.csv
"""
import csv, json, os, statistics as st, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "results")
FIELDS = ["configuration", "repetition", "seed", "jfi", "jfi_window_mean", "dc_flow_mbps", "flow_mbps"]


def extract(store):
    name = os.path.basename(os.path.normpath(store))
    runs = {r["run_key"]: r for r in csv.DictReader(open(os.path.join(store, "export", "runs.csv")))}
    rows = []
    for s in csv.DictReader(open(os.path.join(store, "export", "summaries.csv"))):
        run = runs[s["run_key"]]
        rows.append({"configuration": s["configuration"], "repetition": s["repetition"], "seed": run["seed"],
                     "jfi": s["jfi"], "jfi_window_mean": s["jfi_window_mean"], "dc_flow_mbps": s["dc_flow_mbps"],
                     "flow_mbps": s["flow_mbps"]})
    rows.sort(key=lambda r: (r["configuration"], int(r["repetition"])))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(f"{name}: {len(rows)} runs")


def describe(values, threshold=None):
    sd = st.stdev(values) if len(values) > 1 else 0.0
    s = f"n={len(values)} {st.mean(values):.4f} ± {sd:.4f} ({min(values):.4f}–{max(values):.4f})"
    if threshold is not None:
        s += f", {sum(v >= threshold for v in values)} ≥ {threshold}"
    return s


def tables():
    for file in sorted(f for f in os.listdir(OUT) if f.endswith(".csv")):
        rows = list(csv.DictReader(open(os.path.join(OUT, file))))
        print("##", file[:-4])
        configs = {}
        for r in rows:
            configs.setdefault(r["configuration"], []).append(r)
        for c, rs in configs.items():
            # the relay's CSVs name repetitions, not seeds (a relay run's seed does not make it repeatable)
            key = "seed" if "seed" in rs[0] else "repetition"
            seeds = ",".join(sorted({r[key] for r in rs}, key=int)) + ("" if key == "seed" else " (repetitions)")
            dc = [float(r["dc_flow_mbps"]) for r in rs if r["dc_flow_mbps"]]
            jfi = [float(r["jfi"]) for r in rs if r["jfi"]]
            alone = all(r["flow_mbps"].count("=") == 1 for r in rs)
            if alone:
                print(f"  {c}: Mbit/s {describe(dc)} seeds {seeds}")
            else:
                print(f"  {c}: JFI {describe(jfi, 0.99)}; dc flow Mbit/s {describe(dc)}; seeds {seeds}")


REORDERING_FIELDS = ["configuration", "repetition", "seed", "flow", "mode", "mbps", "received", "held",
                     "released_by_arrival", "released_by_timer", "timer_expiries", "hold_p50_ms", "hold_p99_ms",
                     "path_drops"]


def reordering_extract(store):
    """Per flow of each run: its receiver's counts (held, released by timer, t-Reordering expiries) and Mbit/s."""
    name = os.path.basename(os.path.normpath(store))
    rows = []
    for run in csv.DictReader(open(os.path.join(store, "export", "runs.csv"))):
        d = json.load(open(os.path.join(run["run_dir"], "dc-summary.json")))
        drops = {p["name"]: p["drops"] for p in d["paths"]}
        for f in d["flows"]:
            r = f.get("reordering") or {}
            used = [n for n, share in zip("ab", f["path_share"]) if share > 0]
            rows.append({"configuration": run["configuration"], "repetition": run["repetition"], "seed": run["seed"],
                         "flow": f["id"], "mode": f["mode"], "mbps": f"{f['throughput_mbps']:.4f}",
                         **{k: r.get(k, "") for k in REORDERING_FIELDS[6:13]},
                         "path_drops": sum(drops[n] for n in used)})
    rows.sort(key=lambda r: (r["configuration"], int(r["repetition"]), int(r["flow"])))
    os.makedirs(os.path.join(OUT, "reordering"), exist_ok=True)
    with open(os.path.join(OUT, "reordering", name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, REORDERING_FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(f"{name}: {len(rows)} flows")


def reordering_table(name):
    rows = list(csv.DictReader(open(os.path.join(OUT, "reordering", name + ".csv"))))
    groups = {}
    for r in rows:
        groups.setdefault((r["configuration"], r["mode"]), []).append(r)
    for (c, mode), rs in groups.items():
        m = lambda k: st.mean(float(r[k]) for r in rs if r[k] != "")
        print(f"  {c} {mode}: n={len(rs)} {m('mbps'):.2f} Mbit/s, drops on its paths {m('path_drops'):.0f}, "
              f"held {m('held'):.0f} ({m('released_by_timer'):.0f} released by the timer), "
              f"t-Reordering expiries {m('timer_expiries'):.1f}, hold p99 "
              + (f"{m('hold_p99_ms'):.0f} ms" if any(r["hold_p99_ms"] for r in rs) else "n/a"))


def paired(name, a, b):
    rows = list(csv.DictReader(open(os.path.join(OUT, name + ".csv"))))
    by = lambda c: {r["seed"]: float(r["dc_flow_mbps"]) for r in rows if r["configuration"] == c}
    va, vb = by(a), by(b)
    seeds = sorted(set(va) & set(vb), key=int)
    d = [va[s] - vb[s] for s in seeds]
    sd = st.stdev(d) if len(d) > 1 else 0.0
    pct = st.mean(d) / st.mean([vb[s] for s in seeds]) * 100
    print(f"{name}: {a} − {b}: n={len(d)} {st.mean(d):+.3f} ± {sd:.3f} Mbit/s ({pct:+.2f} %), "
          f"{a} ahead in {sum(x > 0 for x in d)} of {len(d)} seeds")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "paired":
        paired(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "reordering" and not os.path.isdir(sys.argv[2]):
        reordering_table(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == "reordering":
        for store in sys.argv[2:]:
            reordering_extract(store)
    elif len(sys.argv) > 2 and sys.argv[1] == "extract":
        for store in sys.argv[2:]:
            extract(store)
    else:
        tables()
