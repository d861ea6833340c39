# Bulk TCP sender for run.sh: listens on 10.77.1.1:PORT and sends N bytes to the first connection. With PACE
# (bytes/s) set, SO_MAX_PACING_RATE on the socket turns on the kernel's own TCP pacing, as an fq qdisc would.
import os
import socket
import sys

SO_MAX_PACING_RATE = 47
port, n = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
# the congestion controller per socket (root may pick any the kernel has): a namespace's default can only be one of
# the host's net.ipv4.tcp_allowed_congestion_control, which on this machine lists reno and bbr, not cubic
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, os.environ.get("CC", "cubic").encode())
s.bind(('10.77.1.1', port))
s.listen(1)
c, _ = s.accept()
print("cc=" + c.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b'\0').decode(), file=sys.stderr)
if os.environ.get("PACE"):
    c.setsockopt(socket.SOL_SOCKET, SO_MAX_PACING_RATE, int(os.environ["PACE"]))
buf = b'\0' * (1 << 20)
left = n
while left > 0:
    left -= c.send(buf[:min(left, len(buf))])
c.shutdown(socket.SHUT_WR)
c.recv(1)
c.close()
