package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.stream.StreamDataSent;

/**
 * A qlog sink for tests: counts the frames a connection sent and received by class, counts packets declared
 * lost, and remembers the frames written since the last {@link #takeDatagram()} so that a link filter can
 * recognise the datagram the connection just produced (ConnectionPair applies its filters right after send).
 */
final class FrameLog implements QlogSink {
    final Map<Class<?>, Integer> sent = new HashMap<>();
    final Map<Class<?>, Integer> received = new HashMap<>();
    final List<PacketType> sentTypes = new ArrayList<>();
    final List<Frame> receivedFrames = new ArrayList<>();
    int lost;
    /** Packets sent that carried nothing but ACK (and padding), and packets sent that carried stream data. */
    int ackOnlyPacketsSent;
    int dataPacketsSent;
    long minCwnd = Long.MAX_VALUE;
    private final List<Frame> pending = new ArrayList<>();

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                           List<Frame> frames) {
        for (Frame f : frames) {
            sent.merge(f.getClass(), 1, Integer::sum);
        }
        sentTypes.add(type);
        pending.addAll(frames);
        if (frames.stream().anyMatch(f -> f instanceof StreamDataSent)) {
            dataPacketsSent++;
        } else if (frames.stream().allMatch(f -> f instanceof AckFrame
                || f instanceof PaddingFrame)) {
            ackOnlyPacketsSent++;
        }
    }

    @Override
    public void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {
        for (Frame f : frames) {
            received.merge(f.getClass(), 1, Integer::sum);
        }
        receivedFrames.addAll(frames);
    }

    @Override
    public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
        lost++;
    }

    @Override
    public void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                               long congestionWindow, long bytesInFlight, long ssthresh, long pacingRateBitsPerSecond) {
        minCwnd = Math.min(minCwnd, congestionWindow);
    }

    /** The frames of the packets sent since the previous call (the datagram just produced). */
    List<Frame> takeDatagram() {
        List<Frame> frames = List.copyOf(pending);
        pending.clear();
        return frames;
    }

    /** Whether the datagram just produced carried a frame of this class; consumes it as {@link #takeDatagram()}. */
    boolean datagramCarries(Class<?> frameClass) {
        for (Frame f : takeDatagram()) {
            if (frameClass.isInstance(f)) {
                return true;
            }
        }
        return false;
    }

    int sent(Class<?> frameClass) {
        return sent.getOrDefault(frameClass, 0);
    }

    int received(Class<?> frameClass) {
        return received.getOrDefault(frameClass, 0);
    }
}
