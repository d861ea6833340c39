package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.interop.CheckResult.Outcome;
import org.pacelab.lab.interop.QuicPacket.Type;
import org.pacelab.net.spec.LinkSpecParser;

/** The runner's checks on hand-made traces: what passes, what fails, and the reason given. */
class InteropChecksTest {
    @TempDir
    Path dir;
    Path www;
    Path downloads;
    Path keys;
    final List<QuicPacket> packets = new ArrayList<>();
    int frame;

    @BeforeEach
    void files() throws Exception {
        www = Files.createDirectories(dir.resolve("www"));
        downloads = Files.createDirectories(dir.resolve("downloads"));
        Files.write(www.resolve("a"), new byte[] {1, 2, 3});
        Files.write(downloads.resolve("a"), new byte[] {1, 2, 3});
        keys = dir.resolve("keys.log");
        Files.writeString(keys, "SERVER_HANDSHAKE_TRAFFIC_SECRET 00 11\n");
    }

    private QuicPacket at(boolean fromServer, Type type, int udpLength, int ecn, String path, Object... kv) {
        Map<String, List<String>> f = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            f.computeIfAbsent((String) kv[i], k -> new ArrayList<>()).add((String) kv[i + 1]);
        }
        if (type != Type.ONE_RTT && !f.containsKey("quic.version")) {
            f.put("quic.version", List.of("0x00000001"));
        }
        String[] ends = path.split(" ");
        QuicPacket.Datagram d = new QuicPacket.Datagram(++frame, frame * 1000L, fromServer, false, ends[0], 1000, ends[1], 2000,
                ecn, udpLength);
        QuicPacket p = new QuicPacket(d, type, f);
        packets.add(p);
        return p;
    }

    private QuicPacket add(boolean fromServer, Type type, Object... kv) {
        return at(fromServer, type, 1208, 0, fromServer ? "s c" : "c s", kv);
    }

    private CheckResult check(String name) throws Exception {
        InteropCase c = InteropCases.get(name).orElseThrow();
        return c.check().check(new CaseRun(c, www, downloads, List.of("a"), keys, k -> new Trace(packets, false)));
    }

    private void handshake(String serverScid) {
        add(false, Type.INITIAL, "quic.scid", "cc", "quic.token_length", "0", "quic.packet_number", "0", "tls.handshake.type", "1");
        add(true, Type.INITIAL, "quic.scid", serverScid);
        add(true, Type.HANDSHAKE, "quic.scid", serverScid, "tls.handshake.certificates_length", "780");
        add(false, Type.HANDSHAKE, "quic.scid", "cc");
    }

    @Test
    void everyCaseHasItsRunnerNamesAndAValidLink() throws Exception {
        assertEquals(22, InteropCases.all().size());
        assertEquals(List.of("handshake", "transfer", "longrtt", "chacha20", "multiplexing", "retry", "resumption", "zerortt", "http3",
                "blackhole", "keyupdate", "ecn", "amplificationlimit", "handshakeloss", "transferloss", "handshakecorruption",
                "transfercorruption", "ipv6", "v2", "rebind-port", "rebind-addr", "connectionmigration"), InteropCases.names());
        for (InteropCase c : InteropCases.all()) {
            LinkSpecParser.parse("interop-simple-p2p", c.down(), c.up());
        }
        InteropCase l1 = InteropCases.get("handshakeloss").orElseThrow();
        assertEquals("multiconnect", l1.clientTestname());
        assertEquals("transfer", InteropCases.get("keyupdate").orElseThrow().serverTestname());
        assertEquals("keyupdate", InteropCases.get("keyupdate").orElseThrow().clientTestname());
        assertEquals("connectionmigration", InteropCases.get("connectionmigration").orElseThrow().serverTestname());
        assertEquals("transfer", InteropCases.get("connectionmigration").orElseThrow().clientTestname());
        assertEquals(9, InteropCases.get("amplificationlimit").orElseThrow().certificateChain());
    }

    @Test
    void handshakeSucceedsOnceAndFailsOnARetryOrASecondHandshake() throws Exception {
        handshake("s1");
        assertEquals(Outcome.SUCCEEDED, check("handshake").outcome());
        add(true, Type.RETRY, "quic.retry_token", "aa");
        assertEquals(new CheckResult(Outcome.FAILED, "did not expect a Retry to be sent"), check("handshake"));
        packets.clear();
        handshake("s1");
        handshake("s2");
        assertEquals(new CheckResult(Outcome.FAILED, "expected exactly 1 handshake, got 2"), check("transfer"));
    }

    @Test
    void filesMustMatch() throws Exception {
        handshake("s1");
        Files.write(downloads.resolve("a"), new byte[] {1, 2, 4});
        assertEquals(new CheckResult(Outcome.FAILED, "file a differs from the served one"), check("transfer"));
        Files.delete(downloads.resolve("a"));
        assertEquals(new CheckResult(Outcome.FAILED, "1 of 1 files missing (a)"), check("transfer"));
    }

    @Test
    void retryNeedsTheTokenInALaterInitialWithoutAPacketNumberReset() throws Exception {
        add(false, Type.INITIAL, "quic.scid", "cc", "quic.token_length", "0", "quic.packet_number", "0");
        add(true, Type.RETRY, "quic.retry_token", "ab:cd");
        add(false, Type.INITIAL, "quic.scid", "cc", "quic.token_length", "2", "quic.token", "ab:cd", "quic.packet_number", "1");
        add(true, Type.INITIAL, "quic.scid", "s1");
        assertEquals(Outcome.SUCCEEDED, check("retry").outcome());
        packets.set(2, new QuicPacket(packets.get(2).datagram(), Type.INITIAL, Map.of("quic.version", List.of("0x1"), "quic.scid",
                List.of("cc"), "quic.token_length", List.of("2"), "quic.token", List.of("ab:cd"), "quic.packet_number", List.of("0"))));
        assertEquals(new CheckResult(Outcome.FAILED, "the client reset its packet number to 0 after the Retry"), check("retry"));
    }

    @Test
    void amplificationLimitCountsServerBytesAgainstThreeTimesTheClientsInitials() throws Exception {
        at(false, Type.INITIAL, 1208, 0, "c s", "quic.scid", "cc");
        at(true, Type.INITIAL, 1208, 0, "s c", "quic.scid", "s1");
        at(true, Type.HANDSHAKE, 1208, 0, "s c", "quic.scid", "s1", "quic.crypto.offset", "0", "quic.crypto.length", "1100");
        at(true, Type.HANDSHAKE, 1208, 0, "s c", "quic.scid", "s1", "quic.crypto.offset", "7000", "quic.crypto.length", "1100");
        at(false, Type.HANDSHAKE, 100, 0, "c s", "quic.scid", "cc");
        assertEquals(Outcome.SUCCEEDED, check("amplificationlimit").outcome());
        packets.clear();
        at(false, Type.INITIAL, 1208, 0, "c s", "quic.scid", "cc");
        at(true, Type.INITIAL, 1208, 0, "s c", "quic.scid", "s1");
        at(true, Type.HANDSHAKE, 1208, 0, "s c", "quic.scid", "s1", "quic.crypto.offset", "0", "quic.crypto.length", "1100");
        at(true, Type.HANDSHAKE, 1208, 0, "s c", "quic.scid", "s1", "quic.crypto.offset", "1100", "quic.crypto.length", "1100");
        at(true, Type.HANDSHAKE, 1208, 0, "s c", "quic.scid", "s1", "quic.crypto.offset", "7000", "quic.crypto.length", "1100");
        at(false, Type.HANDSHAKE, 100, 0, "c s", "quic.scid", "cc");
        CheckResult r = check("amplificationlimit");
        assertEquals(Outcome.FAILED, r.outcome());
        assertTrue(r.reason().startsWith("the server violated the amplification limit"), r.reason());
    }

    @Test
    void keyUpdateNeedsPhaseOneFromBothAndAKeyLog() throws Exception {
        handshake("s1");
        add(false, Type.ONE_RTT, "quic.key_phase", "1");
        add(true, Type.ONE_RTT, "quic.key_phase", "0");
        CheckResult r = check("keyupdate");
        assertEquals(Outcome.FAILED, r.outcome());
        assertTrue(r.reason().contains("client sent 0 packets in key phase 0 and 1 in phase 1, server 1 and 0"), r.reason());
        add(true, Type.ONE_RTT, "quic.key_phase", "1");
        assertEquals(Outcome.SUCCEEDED, check("keyupdate").outcome());
        Files.delete(keys);
        assertEquals(Outcome.UNSUPPORTED, check("keyupdate").outcome());
    }

    @Test
    void ecnNeedsMarksBothWaysAndAckFramesWithCounts() throws Exception {
        at(false, Type.INITIAL, 1208, 2, "c s", "quic.scid", "cc", "quic.ack.ect0_count", "3");
        at(true, Type.INITIAL, 1208, 2, "s c", "quic.scid", "s1");
        at(true, Type.ONE_RTT, 1208, 2, "s c", "quic.ack.ect0_count", "4");
        assertEquals(Outcome.SUCCEEDED, check("ecn").outcome());
        at(false, Type.ONE_RTT, 100, 3, "c s");
        CheckResult r = check("ecn");
        assertEquals(Outcome.FAILED, r.outcome());
        assertTrue(r.reason().startsWith("not all client packets were consistently marked"), r.reason());
    }

    @Test
    void rebindingNeedsAPathChallengeOnEveryNewPathAndItsResponse() throws Exception {
        handshake("s1");
        at(true, Type.ONE_RTT, 1208, 0, "s c");
        at(true, Type.ONE_RTT, 1208, 0, "s c2", "quic.path_challenge.data", "01");
        at(false, Type.ONE_RTT, 100, 0, "c2 s", "quic.path_response.data", "01");
        assertEquals(Outcome.SUCCEEDED, check("rebind-port").outcome());
        at(true, Type.ONE_RTT, 1208, 0, "s c3");
        assertEquals(new CheckResult(Outcome.FAILED, "the server's first packet on the new path s:1000 -> c3:2000 did not contain a "
                + "PATH_CHALLENGE frame"), check("rebind-port"));
    }

    @Test
    void versionTwoNeedsV1FromTheClientFirstThenOnlyV2Handshakes() throws Exception {
        add(false, Type.INITIAL, "quic.version", "0x00000001", "quic.scid", "cc");
        add(true, Type.INITIAL, "quic.version", "0x6b3343cf", "quic.scid", "s1");
        add(true, Type.HANDSHAKE, "quic.version", "0x6b3343cf", "quic.scid", "s1");
        add(false, Type.HANDSHAKE, "quic.version", "0x6b3343cf", "quic.scid", "cc");
        assertEquals(Outcome.SUCCEEDED, check("v2").outcome());
        add(false, Type.HANDSHAKE, "quic.version", "0x00000001", "quic.scid", "cc");
        assertEquals(new CheckResult(Outcome.FAILED, "expected only QUIC v2 in the client's Handshake packets, got [0x6b3343cf, 0x1]"),
                check("v2"));
    }

    @Test
    void resumptionNeedsTwoHandshakesTheSecondWithoutACertificate() throws Exception {
        handshake("s1");
        add(true, Type.INITIAL, "quic.scid", "s2");
        add(true, Type.HANDSHAKE, "quic.scid", "s2");
        assertEquals(Outcome.SUCCEEDED, check("resumption").outcome());
        add(true, Type.HANDSHAKE, "quic.scid", "s2", "tls.handshake.certificates_length", "700");
        assertEquals(new CheckResult(Outcome.FAILED, "the server sent a Certificate message in the second handshake (no resumption)"),
                check("resumption"));
    }
}
