# Bulk TCP receiver for run.sh: connects to 10.77.1.1:PORT, reads to the end, prints bytes, seconds and goodput.
import socket
import sys
import time

port = int(sys.argv[1])
c = socket.create_connection(('10.77.1.1', port))
t0 = time.time()
got = 0
while True:
    b = c.recv(1 << 20)
    if not b:
        break
    got += len(b)
t1 = time.time()
print(f"bytes={got} secs={t1 - t0:.3f} goodput_mbps={8 * got / (t1 - t0) / 1e6:.2f}")
