package org.pacelab.net.log;

/**
 * The on-disk layout of a pacelab event log (documented in net/README.md, "Event log"). All integers
 * little-endian.
 * <pre>
 * header, 32 bytes:
 *   0  8  magic "PLEVLOG1"
 *   8  2  version (1)
 *  10  2  record size (32)
 *  12  4  reserved (0)
 *  16  8  wall-clock time of model time 0, ns since the Unix epoch (0 if unknown, e.g. a simulation)
 *  24  8  scenario seed
 * record, 32 bytes:
 *   0  8  time, ns on the model clock
 *   8  8  packet id (a duplicate keeps its original's id)
 *  16  4  flow id
 *  20  4  size in bytes (FLOW records: length of the text that follows)
 *  24  1  type: 1 ARRIVAL, 2 TAP, 3 ENQUEUE, 4 DEQUEUE, 5 DROP, 6 DELIVER, 7 CORRUPT, 8 DUPLICATE,
 *           9 REORDER_HOLD, 10 REORDER_RELEASE, 11 REORDER_DISCARD, 12 REORDER_TIMEOUT (dual connectivity), 16 FLOW
 *  25  1  direction: 0 down (server to client), 1 up
 *  26  1  drop cause: 0 none, 1 loss, 2 queue full, 3 oversize, 4 trace ended; with REORDER_DISCARD:
 *           5 duplicate (already received), 6 outdated (below RX_DELIV, given up by the reordering timer);
 *           7 blackhole (the link was dark), 8 listed (the packet's position was on the drop list)
 *  27  1  path: 0 on a single-path link (files written before dual connectivity have 0 here); on a
 *           dual-connectivity downlink 0 = path a, 1 = path b, 255 = the downlink as a whole (ARRIVAL, TAP,
 *           REORDER_TIMEOUT)
 *  28  4  packets counted against the queue limit after the event (reordering events: packets the flow's
 *           reordering receiver holds after the event)
 * a FLOW record is followed by `size` bytes of UTF-8 text describing the flow, e.g.
 *   "udp 127.0.0.1:4433 127.0.0.1:50312" (server address first).
 * </pre>
 * A file cut short by a crash ends with at most one incomplete record, which readers ignore. On a
 * dual-connectivity downlink, DELIVER means "reached the client's reordering receiver"; what the client got is
 * REORDER_RELEASE (every packet that is not discarded gets exactly one).
 */
public final class EventLogFormat {
    private EventLogFormat() {}

    public static final byte[] MAGIC = {'P', 'L', 'E', 'V', 'L', 'O', 'G', '1'};
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 32;
    public static final int RECORD_BYTES = 32;
    public static final int TYPE_FLOW = 16;
}
