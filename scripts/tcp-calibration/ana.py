# Loss episodes and ACK thinning of a TCP transfer tapped by run.sh: retransmissions (tshark's retransmission and
# out-of-order marks) grouped into episodes 0.5 s apart, and data packets per ACK in the first 3 s and overall.
import subprocess
import sys
tap=sys.argv[1]
out=subprocess.run(['tshark','-r',tap,'-Y','tcp.port==5201','-T','fields','-e','frame.time_relative','-e','ip.src','-e','tcp.len',
    '-e','tcp.analysis.out_of_order','-e','tcp.analysis.retransmission','-e','tcp.analysis.fast_retransmission'],capture_output=True,text=True).stdout
t0=None; data=0; acks=0; retx=[]; ss_data=0; ss_acks=0
for l in out.splitlines():
    f=l.split('\t'); t=float(f[0])
    if f[1].endswith('.1.1') or f[1].startswith('fd77:1'):
        if f[2] and int(f[2])>0:
            if t0 is None: t0=t
            data+=1
            if t0 is not None and t-t0<3: ss_data+=1
            if any(f[3:6]): retx.append(t-t0)
    else:
        acks+=1
        if t0 is not None and t-t0<3: ss_acks+=1
eps=[]
for r in retx:
    if eps and r-eps[-1][1]<0.5: eps[-1][1]=r; eps[-1][2]+=1
    else: eps.append([r,r,1])
print(f"retx={len(retx)} episodes={[(round(a,2),n) for a,b,n in eps]} data_per_ack_first3s={ss_data/max(1,ss_acks):.2f} data_per_ack_all={data/max(1,acks):.2f}")
