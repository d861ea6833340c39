package org.pacelab.quic.cc;

import java.util.Map;

/**
 * Standard slow start (RFC 9002 §7.3.1, RFC 5681 §3.1): the window grows by the bytes acknowledged until the
 * first congestion event; nothing ends it earlier.
 */
public final class StandardSlowStart extends RunningRule {
    @Override
    public void onPacketSent(PacketInfo packet) {}

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        return false;
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.STANDARD.optionValue());
    }
}
