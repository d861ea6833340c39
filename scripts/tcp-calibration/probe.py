# Wake-up latency probe for the calibration (docs/benchmarks.md "TCP/TLS calibration"): run it as "chrt -f 50 python3
# probe.py SECONDS" beside a run; it sleeps 1 ms at a time and prints how late it woke up (percentiles, the largest).
# wake-up latency probe: sleeps 1 ms repeatedly for N seconds, prints percentiles of the overshoot and the largest stalls
import time, sys
n=float(sys.argv[1]); lat=[]; t_end=time.monotonic()+n; big=[]
t0=time.monotonic()
while True:
    t=time.monotonic()
    if t>t_end: break
    time.sleep(0.001)
    d=time.monotonic()-t-0.001
    lat.append(d)
    if d>0.01: big.append((round(t-t0,2), round(d*1000,1)))
lat.sort(); k=len(lat)
p=lambda q: lat[min(k-1,int(q*k))]*1e6
print(f"wakeups={k} p50={p(.5):.0f}us p99={p(.99):.0f}us p99.9={p(.999):.0f}us max={lat[-1]*1e6:.0f}us over10ms={len(big)} largest={sorted(big,key=lambda x:-x[1])[:8]}")
