package org.pacelab.io.send;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.locks.LockSupport;

import org.pacelab.io.port.NativeDatagramPort;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.OutgoingMessages;
import org.pacelab.net.sys.SysException;
import org.pacelab.quic.conn.QuicConnection;

/**
 * The native send path: gathers datagrams into messages and messages into sendmmsg batches.
 *
 * <ul>
 *   <li>GSO ({@code --gso N}, or auto: as many as one UDP datagram holds): consecutive datagrams of one connection to one address share a message while they
 *       have the size of its first (the kernel cuts the buffer into equal segments; only the last may be shorter,
 *       so a shorter datagram closes the message, a longer one starts a new one), up to N segments (fewer after
 *       losses with {@code --gso-shrink-on-loss}, see {@link GsoBudget}).</li>
 *   <li>Batching ({@code --sendmmsg B}): up to B messages go to the kernel in one sendmmsg; fewer when the event
 *       loop flushes because the connection has nothing more to send now (before every wait).</li>
 *   <li>Send times ({@code --txtime}): every message carries SCM_TXTIME = its first datagram's intended send time
 *       (never earlier than now: etf drops packets whose time has passed), on the chosen clock. Before the first
 *       message to an address the egress device's qdisc is checked ({@link KernelSupport#requireToward}).</li>
 *   <li>Paced GSO ({@code --paced-gso}): a GSO message also carries the connection's pacing rate in bytes/s
 *       (UDP_SEGMENT_PACING_RATE), and the patched kernel spaces its segments at that rate from the send time.</li>
 * </ul>
 * A full send buffer is retried every 20 µs for at most 40 ms, then the remaining messages are dropped (counted).
 */
public final class MessageTransmitter implements Transmitter {
    private final NativeDatagramPort port;
    private final SendConfig config;
    private final OutgoingMessages out;
    private final int[] segmentsIn;
    private final TxTimeClock.Converter clock;
    private final Map<QuicConnection, GsoBudget> budgets = new WeakHashMap<>();
    private final Set<InetAddress> checkedDestinations = new HashSet<>();

    /** Set when the device refused a GSO buffer under {@code --gso auto}: every datagram is then sent alone. */
    private boolean gsoOff;
    /** The message still taking segments, or -1. */
    private int open = -1;
    private InetSocketAddress openTo;
    private QuicConnection openConnection;
    private int segmentSize;
    private int segmentLimit;
    private long firstIntended;

    private long datagrams;
    private long messages;
    private long calls;
    private long sendBufferFull;
    private long dropped;
    private long largestMessageSegments;

    /** The ECN codepoint of the open message. */
    private int openEcn;

    public MessageTransmitter(NativeDatagramPort port, SendConfig config) throws IOException {
        this.port = port;
        this.config = config;
        this.out = new OutgoingMessages(config.sendmmsg());
        this.segmentsIn = new int[config.sendmmsg()];
        if (config.txtime()) {
            port.enableTxTime(config.txtimeClock().clockId());
            this.clock = config.txtimeClock().converter();
        } else {
            this.clock = null;
        }
    }

    @Override
    public void add(ByteBuffer datagram, InetSocketAddress to, long intendedSendTime, QuicConnection connection)
            throws IOException {
        int length = datagram.remaining();
        int ecn = connection == null ? 0 : connection.ecnCodepoint();
        if (open >= 0 && connection == openConnection && to.equals(openTo) && length <= segmentSize
                && segmentsIn[open] < segmentLimit && ecn == openEcn) {
            out.append(open, datagram);
            segmentsIn[open]++;
            if (length < segmentSize || segmentsIn[open] >= segmentLimit) {
                closeMessage();
            }
            return;
        }
        closeMessage();
        if (out.isFull()) {
            sendAll();
        }
        if ((config.txtime() || config.pacedGso()) && !checkedDestinations.contains(to.getAddress())) {
            KernelSupport.requireToward(config, to);
            checkedDestinations.add(to.getAddress());
        }
        open = out.open(to, port.family());
        out.append(open, datagram);
        segmentsIn[open] = 1;
        openTo = to;
        openConnection = connection;
        openEcn = ecn;
        if (ecn != 0) {
            // RFC 9000 §13.4: the ECN codepoint of every segment of the message
            out.trafficClass(open, ecn);
        }
        segmentSize = length;
        firstIntended = intendedSendTime;
        segmentLimit = gsoOff ? 1 : Math.min(config.gsoLimit(length), budget(connection));
        if (segmentLimit == 1) {
            closeMessage();
        }
    }

    private int budget(QuicConnection c) {
        if (!config.gso()) {
            return 1;
        }
        GsoBudget b = budgets.computeIfAbsent(c, k -> new GsoBudget(config.gsoAuto() ? SendConfig.MAX_GSO_SEGMENTS
                : config.gsoSegments(), config.gsoShrinkOnLoss()));
        if (!config.gsoShrinkOnLoss()) {
            return b.segments(0, 0);
        }
        Map<String, Long> counters = c.counters();
        return b.segments(counters.getOrDefault("packets_sent", 0L), counters.getOrDefault("packets_lost", 0L));
    }

    /** Completes the open message's control messages; sends the batch when it is full. */
    private void closeMessage() throws IOException {
        if (open < 0) {
            return;
        }
        int i = open;
        open = -1;
        int segments = segmentsIn[i];
        if (segments > 1) {
            out.segmentSize(i, segmentSize);
        }
        if (clock != null) {
            long now = System.nanoTime();
            out.txTime(i, clock.toClock(Math.max(firstIntended, now), now));
        }
        if (config.pacedGso() && segments > 1) {
            long rate = openConnection.recovery().pacingRate();
            if (rate > 0) {
                out.pacingRate(i, rate);
            }
        }
        largestMessageSegments = Math.max(largestMessageSegments, segments);
        if (out.isFull()) {
            sendAll();
        }
    }

    @Override
    public void flush() throws IOException {
        closeMessage();
        sendAll();
    }

    private void sendAll() throws IOException {
        int from = 0;
        int attempts = 0;
        while (from < out.count()) {
            int n;
            try {
                calls++;
                n = port.send(out, from);
            } catch (SysException e) {
                if (e.errno() == Libc.EIO && config.gsoAuto() && !gsoOff) {
                    // a device without checksum offload cannot take GSO buffers; auto GSO was a default, not a
                    // request: drop this batch (the connection's loss recovery resends it) and go on without GSO
                    gsoOff = true;
                    for (int k = from; k < out.count(); k++) {
                        dropped += segmentsIn[k];
                    }
                    break;
                }
                out.clear();
                throw explain(e);
            }
            if (n > 0) {
                for (int k = from; k < from + n; k++) {
                    datagrams += segmentsIn[k];
                }
                messages += n;
                from += n;
                attempts = 0;
                continue;
            }
            sendBufferFull++;
            if (++attempts >= DirectTransmitter.RETRIES) {
                for (int k = from; k < out.count(); k++) {
                    dropped += segmentsIn[k];
                }
                break;
            }
            LockSupport.parkNanos(DirectTransmitter.RETRY_PAUSE_NANOS);
        }
        out.clear();
    }

    private IOException explain(SysException e) {
        if (e.errno() == Libc.EIO && config.gso()) {
            return new UnsupportedSendStrategyException(SendConfig.GSO + ": the device toward " + openTo
                    + " cannot segment UDP GSO buffers (sendmsg: EIO, usually no checksum offload); drop " + SendConfig.GSO + ".");
        }
        if (e.errno() == Libc.EINVAL && config.pacedGso()) {
            return new UnsupportedSendStrategyException(KernelSupport.pacedGsoRefusal("the kernel refused the "
                    + "UDP_SEGMENT_PACING_RATE control message (EINVAL)"));
        }
        return e;
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("datagrams_sent", datagrams);
        m.put("messages_sent", messages);
        m.put("send_calls", calls);
        m.put("send_buffer_full", sendBufferFull);
        m.put("datagrams_dropped_locally", dropped);
        m.put("largest_gso_buffer", largestMessageSegments);
        m.put("gso_shrinks", budgets.values().stream().mapToLong(GsoBudget::cuts).sum());
        return m;
    }

    @Override
    public void close() {
        out.close();
    }
}
