package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which tc qdisc layouts honour SO_TXTIME send times (outputs as iproute2 6.x prints them). */
class EgressQdiscTest {

    @Test
    void noqueueAndPfifoIgnoreSendTimes() {
        EgressQdisc lo = EgressQdisc.parse("lo", "qdisc noqueue 0: root refcnt 2 \n");
        assertEquals("device lo has the root qdisc noqueue, which ignores send times",
                lo.whyTxTimeIgnored(TxTimeClock.MONOTONIC));
        EgressQdisc eth = EgressQdisc.parse("eth0",
                "qdisc pfifo_fast 0: root refcnt 2 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1");
        assertEquals("device eth0 has the root qdisc pfifo_fast, which ignores send times",
                eth.whyTxTimeIgnored(TxTimeClock.MONOTONIC));
    }

    @Test
    void fqHonoursMonotonicTimesOnly() {
        EgressQdisc fq = EgressQdisc.parse("veth0", "qdisc fq 8001: root refcnt 2 limit 10000p flow_limit 100p buckets 1024 "
                + "orphan_mask 1023 quantum 3028b initial_quantum 15140b low_rate_threshold 550Kbit refill_delay 40ms "
                + "timer_slack 10us horizon 10s horizon_drop");
        assertNull(fq.whyTxTimeIgnored(TxTimeClock.MONOTONIC));
        assertEquals("fq on device veth0 reads send times as CLOCK_MONOTONIC, not TAI (use --txtime-clock monotonic)",
                fq.whyTxTimeIgnored(TxTimeClock.TAI));
    }

    @Test
    void etfHonoursItsOwnClock() {
        String out = """
                qdisc mqprio 8001: root tc 3 map 2 2 1 0 2 2 2 2 2 2 2 2 2 2 2 2
                             queues:(0:0) (1:1) (2:3)
                qdisc etf 8002: parent 8001:1 clockid TAI delta 300000 offload off deadline_mode off skip_sock_check off
                qdisc etf 8003: parent 8001:2 clockid TAI delta 300000 offload off deadline_mode off skip_sock_check off
                qdisc etf 8004: parent 8001:3 clockid TAI delta 300000 offload off deadline_mode off skip_sock_check off
                """;
        EgressQdisc etf = EgressQdisc.parse("enp1s0", out);
        assertEquals(4, etf.qdiscs().size());
        assertEquals("mqprio", etf.root().kind());
        assertNull(etf.whyTxTimeIgnored(TxTimeClock.TAI));
        assertEquals("etf on device enp1s0 runs on clock TAI, not MONOTONIC (use --txtime-clock tai)",
                etf.whyTxTimeIgnored(TxTimeClock.MONOTONIC));
    }

    @Test
    void mqNeedsEveryChildTimed() {
        String fqChildren = """
                qdisc mq 0: root
                qdisc fq 0: parent :2 limit 10000p flow_limit 100p buckets 1024
                qdisc fq 0: parent :1 limit 10000p flow_limit 100p buckets 1024
                """;
        assertNull(EgressQdisc.parse("eth0", fqChildren).whyTxTimeIgnored(TxTimeClock.MONOTONIC));
        String mixed = """
                qdisc mq 0: root
                qdisc fq 0: parent :2 limit 10000p
                qdisc pfifo_fast 0: parent :1 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1
                """;
        assertEquals("device eth0 has an mq root whose children are pfifo_fast, not all fq or etf",
                EgressQdisc.parse("eth0", mixed).whyTxTimeIgnored(TxTimeClock.MONOTONIC));
    }

    @Test
    void nothingListedIsNotHonoured() {
        assertEquals("tc lists no root qdisc on device tun0", EgressQdisc.parse("tun0", "").whyTxTimeIgnored(TxTimeClock.MONOTONIC));
    }

    @Test
    void routeOutputNamesTheDevice() {
        assertEquals("lo", KernelSupport.deviceOf("local 127.0.0.1 dev lo table local src 127.0.0.1 uid 0 \\    cache <local> "));
        assertEquals("eth0", KernelSupport.deviceOf("8.8.8.8 via 192.0.2.1 dev eth0 src 192.0.2.2 uid 0 \\    cache "));
        assertNull(KernelSupport.deviceOf("RTNETLINK answers: Network is unreachable"));
    }

    @Test
    void kernelConfigTellsWhetherFqExists() {
        String config = "CONFIG_NET_SCH_TBF=y\n# CONFIG_NET_SCH_ETF is not set\n# CONFIG_NET_SCH_FQ is not set\n";
        assertTrue(!KernelSupport.enabled(config, "CONFIG_NET_SCH_FQ") && KernelSupport.enabled(config, "CONFIG_NET_SCH_TBF"));
        assertTrue(KernelSupport.enabled("CONFIG_NET_SCH_FQ=m\n", "CONFIG_NET_SCH_FQ"));
    }
}
