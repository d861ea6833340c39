package org.pacelab.quic.conn;

import org.pacelab.quic.cc.AckEvent;
import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.cc.LossEvent;
import org.pacelab.quic.cc.PacketInfo;

/** Test double: a constant congestion window, so connection tests do not depend on a controller's dynamics. */
final class FixedWindowController implements CongestionController {
    private final long window;
    int acks;
    int losses;

    FixedWindowController(long window) {
        this.window = window;
    }

    @Override public String name() { return "fixed"; }
    @Override public long congestionWindow() { return window; }
    @Override public long slowStartThreshold() { return Long.MAX_VALUE; }
    @Override public String state() { return "congestion_avoidance"; }
    @Override public boolean inSlowStart() { return false; }
    @Override public void onPacketSent(long now, PacketInfo packet, long bytesInFlight) { }
    @Override public void onAck(AckEvent ack) { acks++; }
    @Override public void onLoss(LossEvent loss) { losses++; }
}
