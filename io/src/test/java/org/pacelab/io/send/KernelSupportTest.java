package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The probes against the running kernel (Linux; loopback only). */
class KernelSupportTest {

    @Test
    void gsoWorksOnLoopback() {
        assertNull(KernelSupport.whyNoGso(), "UDP GSO works on loopback on every kernel since 4.18 (PEERS.md)");
    }

    @Test
    void thePatchVerdictIsNotCausedByTheMessageItself() {
        // the probe's GSO message without the rate is accepted (gsoWorksOnLoopback), so a refusal names the rate
        String why = KernelSupport.whyNoPacedGsoPatch();
        assertTrue(why == null || why.contains("UDP_SEGMENT_PACING_RATE"), why);
    }

    @Test
    void pacedGsoWithoutThePatchStopsWithTheExplanation() {
        String why = KernelSupport.whyNoPacedGsoPatch();
        Assumptions.assumeTrue(why != null, "this kernel carries the paced-GSO patch");
        SendConfig c = SendConfig.fromOptions(Map.of("--gso", "16", "--txtime", "on", "--paced-gso", "on"));
        UnsupportedSendStrategyException e = assertThrows(UnsupportedSendStrategyException.class,
                () -> KernelSupport.requireHost(c, new InetSocketAddress("127.0.0.1", 0)));
        assertTrue(e.getMessage().startsWith("--paced-gso: ") && e.getMessage().contains("unpaced burst"), e.getMessage());
    }

    @Test
    void txtimeTowardADeviceWithoutFqOrEtfStops() throws Exception {
        String why = KernelSupport.whyTxTimeIgnored(InetAddress.getByName("127.0.0.1"), TxTimeClock.MONOTONIC);
        Assumptions.assumeTrue(why != null, "lo has an fq or etf qdisc on this host");
        assertTrue(why.contains("device lo"), why);
        SendConfig c = SendConfig.fromOptions(Map.of("--txtime", "on"));
        UnsupportedSendStrategyException e = assertThrows(UnsupportedSendStrategyException.class,
                () -> KernelSupport.requireToward(c, new InetSocketAddress("127.0.0.1", 4433)));
        assertTrue(e.getMessage().startsWith("--txtime: send times toward 127.0.0.1:4433 would be ignored: device lo"),
                e.getMessage());
        assertTrue(e.getMessage().contains("would leave unpaced"), e.getMessage());
        UnsupportedSendStrategyException atStart = assertThrows(UnsupportedSendStrategyException.class,
                () -> KernelSupport.requireHost(c, new InetSocketAddress("127.0.0.1", 0)));
        assertTrue(atStart.getMessage().contains("device lo"), atStart.getMessage());
    }

    @Test
    void pacedGsoRefusesIpv6Destinations() {
        SendConfig c = SendConfig.fromOptions(Map.of("--gso", "16", "--txtime", "on", "--paced-gso", "on"));
        UnsupportedSendStrategyException e = assertThrows(UnsupportedSendStrategyException.class,
                () -> KernelSupport.requireToward(c, new InetSocketAddress("::1", 4433)));
        assertTrue(e.getMessage().contains("IPv4 only"), e.getMessage());
    }
}
