package org.pacelab.quic.cc;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.recovery.RttEstimator;

/** Builders for the events controllers receive, for tests. */
final class Packets {
    static final long MS = 1_000_000L;

    private Packets() {}

    static PacketInfo packet(long pn, long timeSent, int size) {
        return PacketInfo.of(pn, timeSent, size);
    }

    /** Packets numbered from {@code firstPn}, all sent at {@code timeSent}. */
    static List<PacketInfo> packets(long firstPn, int count, long timeSent, int size) {
        List<PacketInfo> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(packet(firstPn + i, timeSent, size));
        }
        return l;
    }

    /** An RTT estimator whose smoothed, latest and min RTT all equal {@code rtt}. */
    static RttEstimator rtt(long rtt) {
        RttEstimator r = new RttEstimator();
        r.onSample(0, rtt, 0, 0, true);
        return r;
    }

    static AckEvent ack(long now, List<PacketInfo> acked, RttEstimator rtt) {
        return new AckEvent(now, acked, rtt.estimates(), 0, 0, null, false, 0);
    }

    static LossEvent loss(long now, List<PacketInfo> lost, RttEstimator rtt, boolean persistent) {
        return new LossEvent(now, lost, rtt.estimates(), 0, 0, persistent, 0, 0);
    }
}
