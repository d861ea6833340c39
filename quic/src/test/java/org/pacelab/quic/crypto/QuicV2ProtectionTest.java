package org.pacelab.quic.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.PacketWriter;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.packet.Retry;
import org.pacelab.quic.wire.Bytes;

/** RFC 9369 (QUIC v2) Appendix A byte for byte: Initial keys, the client Initial, Retry, ChaCha20 short header. */
class QuicV2ProtectionTest {
    private static final RfcVectors V = RfcVectors.read("RFC 9369", "/rfc/rfc9369-appendix-a.txt");
    private static final byte[] DCID = Bytes.fromHex("8394c8f03e515708");
    private static final VersionProtection V2 = VersionProtection.V2;

    private static byte[] hex(String name) {
        return V.hex(name);
    }

    @Test
    void initialKeysOfAppendixA1() {
        assertArrayEquals(hex("initial_secret"), InitialSecrets.initialSecret(V2, DCID));
        assertArrayEquals(hex("client_initial_secret"), InitialSecrets.clientSecret(V2, DCID));
        assertArrayEquals(hex("server_initial_secret"), InitialSecrets.serverSecret(V2, DCID));
        PacketKeys client = InitialSecrets.clientKeys(V2, DCID);
        assertArrayEquals(hex("client_key"), client.key());
        assertArrayEquals(hex("client_iv"), client.iv());
        assertArrayEquals(hex("client_hp"), client.hpKey());
        PacketKeys server = InitialSecrets.serverKeys(V2, DCID);
        assertArrayEquals(hex("server_key"), server.key());
        assertArrayEquals(hex("server_iv"), server.iv());
        assertArrayEquals(hex("server_hp"), server.hpKey());
        assertEquals(V2, server.version());
    }

    @Test
    void clientInitialOfAppendixA2IsProtectedAndReadBack() throws Exception {
        byte[] header = hex("client_initial_header");
        byte[] payload = Rfc9001Vectors.clientInitialPayload(); // the same ClientHello as RFC 9001 A.2
        ByteBuffer packet = ByteBuffer.allocate(1200);
        packet.put(header).put(payload);
        PacketKeys keys = InitialSecrets.clientKeys(V2, DCID);
        keys.seal(packet, 0, header.length, header.length, payload.length, 2);
        byte[] sample = new byte[16];
        packet.get(22, sample);
        assertArrayEquals(hex("client_sample"), sample);
        byte[] mask = new byte[5];
        keys.headerProtectionMask(packet, 22, mask);
        assertArrayEquals(hex("client_mask"), mask);
        HeaderProtection.apply(packet, 0, 18, keys);
        assertArrayEquals(hex("client_initial_protected"), packet.array());

        ByteBuffer received = ByteBuffer.wrap(hex("client_initial_protected"));
        ParsedPacket p = PacketParser.parse(received, 0, 0);
        assertEquals(PacketType.INITIAL, p.type());
        assertEquals(QuicVersion.V2, p.version());
        PacketKeys reader = InitialSecrets.clientKeys(V2, DCID);
        assertEquals(4, HeaderProtection.remove(received, 0, p.pnOffset(), p.packetEnd(), reader));
        assertEquals(1162, reader.open(received, 0, 22, 22, 1200 - 22, 2));
        // the v1 keys of the same connection ID do not open it
        ByteBuffer again = ByteBuffer.wrap(hex("client_initial_protected"));
        PacketKeys v1 = InitialSecrets.clientKeys(DCID);
        HeaderProtection.remove(again, 0, 18, 1200, v1);
        assertThrows(AeadException.class, () -> v1.open(again, 0, 22, 22, 1200 - 22, 2));
    }

    @Test
    void longHeaderTypeCodesOfSection32() {
        ByteBuffer out = ByteBuffer.allocate(64);
        PacketWriter.writeLongHeader(out, PacketType.HANDSHAKE, QuicVersion.V2, DCID, new byte[0], null, 1, 2);
        assertEquals(0xf0, out.get(0) & 0xf0, "v2 Handshake is 0b11");
        out.clear();
        PacketWriter.writeLongHeader(out, PacketType.INITIAL, QuicVersion.V2, DCID, new byte[0], null, 1, 2);
        assertEquals(0xd0, out.get(0) & 0xf0, "v2 Initial is 0b01");
        out.clear();
        PacketWriter.writeLongHeader(out, PacketType.ZERO_RTT, QuicVersion.V2, DCID, new byte[0], null, 1, 2);
        assertEquals(0xe0, out.get(0) & 0xf0, "v2 0-RTT is 0b10");
        for (PacketType t : new PacketType[] {PacketType.INITIAL, PacketType.ZERO_RTT, PacketType.HANDSHAKE, PacketType.RETRY}) {
            assertEquals(t, PacketType.fromLongTypeBits(QuicVersion.V2, t.longTypeBits(QuicVersion.V2)));
            assertEquals(t, PacketType.fromLongTypeBits(QuicVersion.V1, t.longTypeBits(QuicVersion.V1)));
            assertNotEquals(t.longTypeBits(QuicVersion.V1), t.longTypeBits(QuicVersion.V2));
        }
    }

    @Test
    void retryOfAppendixA4() throws Exception {
        byte[] retry = hex("retry");
        byte[] built = Retry.build(QuicVersion.V2, new byte[0], Bytes.fromHex("f067a5502a4262b5"), DCID,
                "token".getBytes(StandardCharsets.US_ASCII), 0xf);
        assertArrayEquals(retry, built);
        assertTrue(RetryIntegrity.verify(V2, DCID, retry));
        assertFalse(RetryIntegrity.verify(VersionProtection.V1, DCID, retry));
        ByteBuffer d = ByteBuffer.wrap(retry);
        ParsedPacket p = PacketParser.parse(d, 0, 0);
        assertEquals(PacketType.RETRY, p.type());
        assertTrue(Retry.verify(d, p, DCID));
    }

    @Test
    void chachaShortHeaderOfAppendixA5() throws Exception {
        PacketKeys keys = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_secret"), V2);
        assertArrayEquals(hex("chacha_iv"), keys.iv());
        long pn = 654360564;
        ByteBuffer packet = ByteBuffer.allocate(21);
        packet.put(hex("chacha_unprotected_header")).put((byte) 1);
        keys.seal(packet, 0, 4, 4, 1, pn);
        byte[] mask = new byte[5];
        keys.headerProtectionMask(packet, 5, mask);
        assertArrayEquals(hex("chacha_mask"), mask);
        HeaderProtection.apply(packet, 0, 1, keys);
        assertArrayEquals(hex("chacha_packet"), packet.array());
        PacketKeys next = keys.nextGeneration();
        assertArrayEquals(Hkdf.expandLabel("SHA-256", hex("chacha_secret"), "quicv2 ku", new byte[0], 32), next.secret());
        assertEquals(V2, next.version());
        assertFalse(Arrays.equals(keys.forVersion(VersionProtection.V1).key(), keys.key()));
    }
}
