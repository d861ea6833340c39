#!/usr/bin/env python3
"""Per-run results and the tables of docs/reproduction.md for the campaigns stored as CSV in results/.

  python3 tables.py extract STORE_DIR...   # after 'pacelab report --campaign STORE_DIR --export csv': writes
                                           # results/NAME.csv (one row per run) from STORE_DIR/export/
  python3 tables.py                        # mean ± sample std, range and seeds at or above 0.99 per configuration
  python3 tables.py paired NAME A B        # results/NAME.csv: configuration A's dc-flow Mbit/s minus B's, paired by
                                           # seed (mean ± sample std, in how many seeds A is ahead, mean % of B)
"""
import csv, os, statistics as st, sys

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
            # relay runs have no seed (their CSVs were written by hand from the relay's summaries): name the repetitions
            seeds = (",".join(sorted({r["seed"] for r in rs}, key=int)) if "seed" in rs[0]
                     else "(relay) repetitions " + ",".join(r["repetition"] for r in rs))
            dc = [float(r["dc_flow_mbps"]) for r in rs if r["dc_flow_mbps"]]
            jfi = [float(r["jfi"]) for r in rs if r["jfi"]]
            alone = all(r["flow_mbps"].count("=") == 1 for r in rs)
            if alone:
                print(f"  {c}: Mbit/s {describe(dc)} seeds {seeds}")
            else:
                print(f"  {c}: JFI {describe(jfi, 0.99)}; dc flow Mbit/s {describe(dc)}; seeds {seeds}")


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
    elif len(sys.argv) > 2 and sys.argv[1] == "extract":
        for store in sys.argv[2:]:
            extract(store)
    else:
        tables()
