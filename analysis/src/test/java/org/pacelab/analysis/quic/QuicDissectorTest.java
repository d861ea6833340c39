package org.pacelab.analysis.quic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.pacelab.analysis.capture.CapturedFrame;
import org.pacelab.analysis.packet.DecodedPacket;
import org.pacelab.analysis.packet.PacketDecoder;
import org.pacelab.analysis.testing.Frames;
import org.pacelab.analysis.testing.SyntheticQuic;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.PacketType;

class QuicDissectorTest {
    private final DatagramInfo info = new DatagramInfo();

    private void dissect(QuicDissector d, byte[] udpPayload, boolean fromServer) {
        byte[] frame = fromServer ? Frames.udpOverEthernet(1, 443, 2, 50000, udpPayload)
                : Frames.udpOverEthernet(2, 50000, 1, 443, udpPayload);
        CapturedFrame f = new CapturedFrame().set(1, 0, 1, ByteBuffer.wrap(frame), 0, frame.length, frame.length, 0);
        DecodedPacket p = new DecodedPacket();
        assertEquals(DecodedPacket.Status.OK, PacketDecoder.decode(f, p));
        d.dissect(p, fromServer, 1, info);
    }

    private static KeyLog keyLog(String text) {
        KeyLog k = new KeyLog();
        k.add(text, "test.keys");
        return k;
    }

    private void handshake(QuicDissector d, SyntheticQuic q) {
        dissect(d, q.clientInitial(0), false);
        assertEquals(1, info.count());
        assertEquals(PacketType.INITIAL, info.type(0));
        assertEquals(0, info.packetNumber(0));
        dissect(d, q.serverInitialAndHandshake(0, 0), true);
        assertEquals(2, info.count(), "Initial coalesced with Handshake");
        assertEquals(PacketType.INITIAL, info.type(0));
        assertEquals(PacketType.HANDSHAKE, info.type(1));
        dissect(d, q.clientHandshake(0), false);
    }

    @ParameterizedTest
    @EnumSource(CipherSuite.class)
    void packetNumbersAreRecoveredForEveryCipherSuite(CipherSuite suite) {
        SyntheticQuic q = new SyntheticQuic(suite, 1);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        handshake(d, q);
        assertEquals(0, info.packetNumber(0));
        List<Long> sent = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        long largestAcked = -1;
        // gaps in the sequence and growing numbers exercise 1- to 3-byte encodings (RFC 9000 §A.2, §A.3)
        for (long pn = 0; pn < 70_000; pn += pn < 300 ? 1 : 997) {
            dissect(d, q.server1Rtt(pn, largestAcked, 1200, 0), true);
            sent.add(pn);
            seen.add(info.packetNumber(0));
            largestAcked = pn - 5;
        }
        assertEquals(sent, seen);
        assertEquals(sent.size(), d.server1RttRecovered());
        assertEquals(suite.tlsCode(), d.connections().getFirst().cipherSuiteCode());
    }

    @Test
    void keyUpdatesDoNotStopRecoveryBecauseHeaderProtectionKeysStay() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 2);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        handshake(d, q);
        for (long pn = 0; pn < 100; pn++) {
            dissect(d, q.server1Rtt(pn, pn - 1, 1200, pn < 50 ? 0 : 1), true);
            assertEquals(pn, info.packetNumber(0));
        }
        dissect(d, q.client1Rtt(0, -1), false);
        assertEquals(0, info.packetNumber(0));
    }

    @Test
    void withoutAKeyLogOnlyInitialNumbersAreRecovered() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 3);
        QuicDissector d = new QuicDissector(null);
        dissect(d, q.clientInitial(0), false);
        assertEquals(0, info.packetNumber(0));
        dissect(d, q.serverInitialAndHandshake(0, 0), true);
        assertEquals(0, info.packetNumber(0));
        assertEquals(-1, info.packetNumber(1));
        dissect(d, q.server1Rtt(0, -1, 1200, 0), true);
        assertEquals(-1, info.packetNumber(0));
        assertEquals(1, d.server1RttPackets());
        assertEquals(0, d.server1RttRecovered());
        assertTrue(d.failures().containsKey("no key log given"));
    }

    @Test
    void aKeyLogOfAnotherConnectionIsNamedAsTheReason() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 4);
        SyntheticQuic other = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 5);
        QuicDissector d = new QuicDissector(keyLog(other.keyLog()));
        handshake(d, q);
        dissect(d, q.server1Rtt(0, -1, 1200, 0), true);
        assertEquals(-1, info.packetNumber(0));
        assertTrue(d.failures().keySet().stream().anyMatch(r -> r.contains("no secrets for the connection's client random")),
                d.failures().toString());
    }

    @Test
    void withoutServerHelloA32ByteSecretIsTriedAsAesAndChaCha() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.CHACHA20_POLY1305_SHA256, 6);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        dissect(d, q.clientInitial(0), false); // the server's Initial is not captured
        dissect(d, q.clientHandshake(0), false);
        int right = 0;
        int wrong = 0;
        for (long pn = 0; pn < 200; pn++) {
            dissect(d, q.server1Rtt(pn, pn - 1, 1200, 0), true);
            if (info.packetNumber(0) == pn) {
                right++;
            } else if (info.packetNumber(0) >= 0) {
                wrong++;
            }
        }
        assertEquals(0, wrong, "a wrong key never yields a number: " + d.failures());
        assertTrue(right >= 190, "ChaCha20 is found from the reserved bits within a few packets: " + right);
        assertNull(d.connections().getFirst().cipherSuiteName());
    }

    @Test
    void aes128CcmIsProtectedLikeAes128Gcm() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 0x1304, 8);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        handshake(d, q);
        dissect(d, q.server1Rtt(7, 5, 1200, 0), true);
        assertEquals(7, info.packetNumber(0));
        assertEquals("TLS_AES_128_CCM_SHA256", d.connections().getFirst().cipherSuiteName());
    }

    @Test
    void shortHeadersOfAnUnseenHandshakeAreCountedButNotRecovered() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 9);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        dissect(d, q.server1Rtt(3, 2, 1200, 0), true);
        assertEquals(1, info.count());
        assertEquals(-1, info.packetNumber(0));
        assertTrue(d.failures().keySet().iterator().next().contains("handshake was not captured"));
    }

    @Test
    void snapLengthBeforeTheSampleIsNamed() {
        SyntheticQuic q = new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 10);
        QuicDissector d = new QuicDissector(keyLog(q.keyLog()));
        handshake(d, q);
        byte[] full = Frames.udpOverEthernet(1, 443, 2, 50000, q.server1Rtt(0, -1, 1200, 0));
        int cut = 14 + 20 + 8 + 12;
        CapturedFrame f = new CapturedFrame().set(1, 0, 1, ByteBuffer.wrap(full), 0, cut, full.length, 0);
        DecodedPacket p = new DecodedPacket();
        PacketDecoder.decode(f, p);
        d.dissect(p, true, 1, info);
        assertEquals(-1, info.packetNumber(0));
        assertTrue(d.failures().keySet().stream().anyMatch(r -> r.contains("snap length")), d.failures().toString());
    }

    @Test
    void malformedKeyLogLinesAreSkippedWithFileAndLine() {
        KeyLog k = new KeyLog();
        k.add("# comment\nCLIENT_TRAFFIC_SECRET_0 zz 00\n\nSERVER_TRAFFIC_SECRET_0 " + "ab".repeat(32) + " " + "01".repeat(32) + "\n",
                "keys.log");
        assertEquals(1, k.connections());
        assertEquals(1, k.notes().size());
        assertTrue(k.notes().getFirst().contains("keys.log:2"), k.notes().getFirst());
    }

    /** The segment search as it was before Horspool's skips: every offset tried in turn (the reference). */
    private static int everyOffset(byte[] a, int captured, int cidLen) {
        int last = captured - 1 - cidLen;
        for (int size = 1 + cidLen + 1 + 4 + 16; size <= last; size++) {
            if ((a[size] & 0xc0) == 0x40 && java.util.Arrays.equals(a, 1, 1 + cidLen, a, size + 1, size + 1 + cidLen)) {
                boolean every = true;
                for (int at = 2 * size; at + 1 + cidLen <= captured; at += size) {
                    if ((a[at] & 0xc0) != 0x40 || !java.util.Arrays.equals(a, 1, 1 + cidLen, a, at + 1, at + 1 + cidLen)) {
                        every = false;
                        break;
                    }
                }
                if (every) {
                    return size;
                }
            }
        }
        return 0;
    }

    @Test
    void gsoSegmentSearchFindsWhatTryingEveryOffsetFinds() {
        java.util.Random r = new java.util.Random(20261203);
        QuicDissector.CidSearch search = new QuicDissector.CidSearch();
        int found = 0;
        for (int trial = 0; trial < 20_000; trial++) {
            int cidLen = 4 + r.nextInt(17);
            // a small alphabet makes partial and false matches of the ID common; a wide one is the usual ciphertext
            int alphabet = r.nextBoolean() ? 2 + r.nextInt(3) : 256;
            int captured = 2 * (cidLen + 21) + r.nextInt(1500);
            byte[] a = new byte[captured + r.nextInt(8)]; // the scratch array may be longer than the payload
            for (int i = 0; i < a.length; i++) {
                a[i] = (byte) (alphabet == 256 ? r.nextInt(256) : 0x40 + r.nextInt(alphabet));
            }
            a[0] = (byte) (0x40 | r.nextInt(0x40));
            if (r.nextInt(3) == 0) {
                // plant a GSO buffer: a short header with the ID at every multiple of a segment size
                int size = 1 + cidLen + 21 + r.nextInt(Math.max(1, captured / 2 - cidLen - 21));
                for (int at = size; at + 1 + cidLen <= captured; at += size) {
                    a[at] = (byte) (0x40 | r.nextInt(0x40));
                    System.arraycopy(a, 1, a, at + 1, cidLen);
                }
            }
            // the same search object across trials, as one dissector keeps it across packets
            int expected = everyOffset(a, captured, cidLen);
            assertEquals(expected, search.firstSegmentSize(a, captured, cidLen), "trial " + trial);
            if (expected > 0) {
                found++;
            }
        }
        assertTrue(found > 1000, "planted buffers found: " + found);
    }
}
