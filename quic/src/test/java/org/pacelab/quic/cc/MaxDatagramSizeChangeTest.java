package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.ack;
import static org.pacelab.quic.cc.Packets.packets;

import java.util.SplittableRandom;
import java.util.function.IntFunction;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 9002 §7.2: "If the maximum datagram size changes during the connection, the initial congestion window SHOULD be
 * recalculated with the new size. If the maximum datagram size is decreased in order to complete the handshake, the
 * congestion window SHOULD be set to the new initial congestion window." pacelab's size changes when the peer's
 * max_udp_payload_size arrives with its transport parameters, during the handshake.
 */
class MaxDatagramSizeChangeTest {

    private static IntFunction<CongestionController> controller(String name) {
        return switch (name) {
            case "newreno" -> mds -> new NewRenoController(mds, null);
            case "cubic" -> mds -> new CubicController(mds, null, CubicRollback.OFF, true);
            case "bbr" -> mds -> new BbrV3Controller(mds, inflight -> {}, new SplittableRandom(1));
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"newreno", "cubic", "bbr"})
    void aSmallerSizeSetsTheWindowToTheNewInitialWindow(String name) {
        CongestionController cc = controller(name).apply(1452);
        assertEquals(14_520, cc.congestionWindow(), "10 * 1452 before the peer's transport parameters");
        cc.onMaxDatagramSizeChanged(1200);
        assertEquals(12_000, cc.congestionWindow(), "10 * 1200: the initial window recalculated");
    }

    @ParameterizedTest
    @ValueSource(strings = {"newreno", "cubic"})
    void aSmallerSizeAfterGrowthStillSetsTheNewInitialWindow(String name) {
        CongestionController cc = controller(name).apply(1452);
        cc.onAck(ack(50 * MS, packets(0, 2, 0, 1452), Packets.rtt(50 * MS)));
        assertEquals(14_520 + 2 * 1452, cc.congestionWindow(), "slow start grew the window by the bytes acknowledged");
        cc.onMaxDatagramSizeChanged(1200);
        assertEquals(12_000, cc.congestionWindow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"newreno", "cubic"})
    void aLargerSizeKeepsTheWindow(String name) {
        CongestionController cc = controller(name).apply(1200);
        cc.onMaxDatagramSizeChanged(1452);
        assertEquals(12_000, cc.congestionWindow());
    }
}
