package org.pacelab.sim.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.pcap.IpUdpHeaders;
import org.pacelab.net.pcap.PcapngWriter;

/**
 * The tap at the study's sniffer position, as the relay records it: server-to-client packets when they leave the
 * access link's wire model (event TAP; on a dual-connectivity link before the splitter), client-to-server packets
 * when they reach the server (DELIVER), each with synthesized IPv4/UDP headers — the client's address is that of the
 * packet's flow (flow i + 1 = client i) — and the virtual time mapped onto the {@link VirtualEpoch}.
 *
 * <p>The packets are written on a thread of their own ({@code tap-writer}), not the run's: the run's thread copies each
 * datagram's bytes (the receiver decrypts them in place later) with its time, flow and direction into a batch, and hands
 * whole batches over; the writer builds the headers and their checksums, encodes the pcapng blocks and writes them (and
 * gives them to the capture's reader, {@link CapturePipe}) in the same order, so the file holds the same bytes. The
 * headers, the checksum and the pcapng write were ~10 % of a short simulation's main thread under C1
 * (docs/benchmarks.md, "Simulator", issue 14, 2026-12-05). Memory is bounded: {@value #BATCHES} batches of
 * {@value #BATCH_BYTES} bytes circulate, and the run waits for the writer when all are full.
 *
 * <p>A failure of the writer (its file, or the capture's reader it feeds) ends the writing; the run's thread throws it
 * at its next hand-over, at {@link #close()} at the latest, as one sentence naming the file. {@link #discard()} (the
 * run failed) ends the writer and deletes the partial file. One run thread calls {@link #onEvent}, {@link #close()}
 * and {@link #discard()}.
 */
public final class TapRecorder implements LinkObserver {
    /** Datagram bytes per hand-over (more than any UDP datagram's 65,535). */
    static final int BATCH_BYTES = 256 * 1024;
    /** Datagrams per hand-over at most. */
    static final int BATCH_PACKETS = 1024;
    /** Batches that circulate between the run's thread and the writer: the run waits when all are full. */
    static final int BATCHES = 8;

    private final PcapngWriter tap;
    private final InetSocketAddress server;
    private final List<InetSocketAddress> clients;
    private final int flows;
    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final Thread writer;
    private Batch batch = new Batch();
    private volatile Throwable failure;
    private volatile boolean aborted;
    private boolean closed;

    /**
     * Starts the writer of {@code tap}, which this recorder owns from now on: it is closed by {@link #close()} or
     * deleted by {@link #discard()}, and not to be used otherwise.
     *
     * @param clients the clients' addresses, client i's at index i
     */
    public TapRecorder(PcapngWriter tap, InetSocketAddress server, List<InetSocketAddress> clients) {
        this.tap = tap;
        this.server = server;
        this.clients = List.copyOf(clients);
        this.flows = this.clients.size();
        for (int i = 1; i < BATCHES; i++) {
            free.add(new Batch());
        }
        writer = Thread.ofPlatform().name("tap-writer").daemon().unstarted(this::write);
        writer.start();
    }

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        boolean down = direction == Direction.DOWN.index();
        if (!((down && type == EventType.TAP) || (!down && type == EventType.DELIVER))) {
            return;
        }
        int flow = p.flow();
        if (flow < 1 || flow > flows) {
            throw new IllegalStateException("the tap saw a packet of flow " + flow + "; the run has flows 1 to " + flows);
        }
        if (closed) {
            throw new IllegalStateException("a packet at the tap after the tap was closed");
        }
        ByteBuffer payload = p.payload();
        int len = payload.remaining();
        if (len > BATCH_BYTES) {
            throw new IllegalArgumentException("a datagram of " + len + " bytes at the tap; at most " + BATCH_BYTES);
        }
        Batch b = batch;
        if (b.count == BATCH_PACKETS || BATCH_BYTES - b.used < len) {
            b = handOver();
        }
        if (payload.hasArray()) {
            System.arraycopy(payload.array(), payload.arrayOffset() + payload.position(), b.data, b.used, len);
        } else {
            payload.get(payload.position(), b.data, b.used, len);
        }
        int i = b.count++;
        b.times[i] = time;
        b.flows[i] = down ? flow : -flow;
        b.lengths[i] = len;
        b.used += len;
    }

    /** Hands the current batch over and takes a free one; throws the writer's failure. */
    private Batch handOver() {
        rethrow();
        Batch b = batch;
        batch = null;
        try {
            full.put(b); // never waits: at most BATCHES batches exist
            Batch next;
            while ((next = free.poll(100, TimeUnit.MILLISECONDS)) == null) {
                rethrow();
                if (!writer.isAlive()) {
                    throw new IllegalStateException("the tap's writer ended before the tap was closed");
                }
            }
            batch = next;
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing packets to the tap's writer", e);
        }
    }

    /** The writer's thread: the batches in order until the last; after a failure it only returns them. */
    private void write() {
        try {
            while (true) {
                Batch b = full.take();
                if (failure == null && !aborted) {
                    try {
                        writeBatch(b);
                        if (b.end) {
                            tap.flush();
                        }
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
                boolean end = b.end;
                b.count = 0;
                b.used = 0;
                b.end = false;
                free.put(b);
                if (end) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // aborted: the run failed and its files are discarded
        }
    }

    private void writeBatch(Batch b) {
        ByteBuffer view = b.view;
        int off = 0;
        for (int i = 0; i < b.count; i++) {
            int flow = b.flows[i];
            int len = b.lengths[i];
            InetSocketAddress client = clients.get(Math.abs(flow) - 1);
            view.limit(off + len).position(off);
            InetSocketAddress src = flow > 0 ? server : client;
            InetSocketAddress dst = flow > 0 ? client : server;
            tap.write(VirtualEpoch.toEpochNanos(b.times[i]), IpUdpHeaders.build(src, dst, view), view);
            view.clear();
            off += len;
        }
    }

    /** The writer's failure, thrown on the run's thread as one sentence naming the file. */
    private void rethrow() {
        Throwable t = failure;
        if (t == null) {
            return;
        }
        if (t instanceof UncheckedIOException u) {
            throw new UncheckedIOException(failed(u.getCause()));
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("the tap's writer failed: " + t, t);
    }

    private IOException failed(IOException cause) {
        return new IOException("cannot write the capture " + tap.path() + ": " + cause.getMessage(), cause);
    }

    /**
     * Hands over what is left, waits until every packet is written, closes the capture (synced, then renamed from its
     * {@code .part}) and throws the writer's failure if there was one (the {@code .part} is then deleted).
     */
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        // the last batch, also after a failure: the writer returns batches until it sees the last
        Batch last = batch == null ? new Batch() : batch;
        batch = null;
        last.end = true;
        try {
            full.put(last);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            discard();
            throw new IOException("interrupted while waiting for the tap's writer", e);
        }
        Throwable t = failure;
        if (t != null) {
            tap.discard();
            if (t instanceof UncheckedIOException u) {
                throw failed(u.getCause());
            }
            rethrow();
        }
        tap.close();
    }

    /** Ends the writer without writing what is still queued and deletes the partial capture (the run failed). */
    public void discard() {
        closed = true;
        aborted = true;
        writer.interrupt();
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        tap.discard();
    }

    /** The writer's thread (tests). */
    Thread writerThread() {
        return writer;
    }

    /** Datagrams with their times and flows, the bytes one after another; flow negative: client to server. */
    private static final class Batch {
        final long[] times = new long[BATCH_PACKETS];
        final int[] flows = new int[BATCH_PACKETS];
        final int[] lengths = new int[BATCH_PACKETS];
        final byte[] data = new byte[BATCH_BYTES];
        /** The data in the native byte order, which the UDP checksum reads fastest. */
        final ByteBuffer view = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder());
        int count;
        int used;
        boolean end;
    }
}
