package org.pacelab.quic.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.crypto.Rfc9001Vectors.DCID;
import static org.pacelab.quic.crypto.Rfc9001Vectors.hex;

import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.wire.Bytes;

/** RFC 9001 Appendix A, byte for byte, plus round trips for every suite. */
class PacketProtectionTest {

    @Test
    void hkdfLabelsOfAppendixA1() {
        assertEquals("00200f746c73313320636c69656e7420696e00", Bytes.hex(Hkdf.hkdfLabel("client in", new byte[0], 32)));
        assertEquals("00200f746c7331332073657276657220696e00", Bytes.hex(Hkdf.hkdfLabel("server in", new byte[0], 32)));
        assertEquals("00100e746c7331332071756963206b657900", Bytes.hex(Hkdf.hkdfLabel("quic key", new byte[0], 16)));
        assertEquals("000c0d746c733133207175696320697600", Bytes.hex(Hkdf.hkdfLabel("quic iv", new byte[0], 12)));
        assertEquals("00100d746c733133207175696320687000", Bytes.hex(Hkdf.hkdfLabel("quic hp", new byte[0], 16)));
    }

    @Test
    void initialKeysOfAppendixA1() {
        assertArrayEquals(hex("initial_secret"), InitialSecrets.initialSecret(DCID));
        assertArrayEquals(hex("client_initial_secret"), InitialSecrets.clientSecret(DCID));
        assertArrayEquals(hex("server_initial_secret"), InitialSecrets.serverSecret(DCID));
        PacketKeys client = InitialSecrets.clientKeys(DCID);
        assertArrayEquals(hex("client_key"), client.key());
        assertArrayEquals(hex("client_iv"), client.iv());
        assertArrayEquals(hex("client_hp"), client.hpKey());
        PacketKeys server = InitialSecrets.serverKeys(DCID);
        assertArrayEquals(hex("server_key"), server.key());
        assertArrayEquals(hex("server_iv"), server.iv());
        assertArrayEquals(hex("server_hp"), server.hpKey());
        assertEquals(CipherSuite.AES_128_GCM_SHA256, server.suite());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void clientInitialOfAppendixA2(boolean direct) {
        byte[] header = hex("client_initial_header");
        byte[] payload = Rfc9001Vectors.clientInitialPayload();
        ByteBuffer packet = direct ? ByteBuffer.allocateDirect(1200) : ByteBuffer.allocate(1200);
        packet.put(header).put(payload);
        PacketKeys keys = InitialSecrets.clientKeys(DCID);
        int n = keys.seal(packet, 0, header.length, header.length, payload.length, 2);
        assertEquals(payload.length + 16, n);
        assertArrayEquals(hex("client_sample"), bytes(packet, 22, 16), "sample after sealing");
        byte[] mask = new byte[5];
        keys.headerProtectionMask(packet, 22, mask);
        assertArrayEquals(hex("client_mask"), mask);
        HeaderProtection.apply(packet, 0, 18, keys);
        assertArrayEquals(hex("client_initial_protected"), bytes(packet, 0, 1200));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void serverUnprotectsClientInitialOfAppendixA2(boolean direct) throws AeadException {
        ByteBuffer packet = wrap(hex("client_initial_protected"), direct);
        PacketKeys keys = InitialSecrets.clientKeys(DCID);
        assertEquals(4, HeaderProtection.remove(packet, 0, 18, keys));
        assertArrayEquals(hex("client_initial_header"), bytes(packet, 0, 22));
        int plain = keys.open(packet, 0, 22, 22, 1200 - 22, 2);
        assertEquals(1162, plain);
        assertArrayEquals(Rfc9001Vectors.clientInitialPayload(), bytes(packet, 22, 1162));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void serverInitialOfAppendixA3(boolean direct) throws AeadException {
        byte[] header = hex("server_initial_header");
        byte[] payload = hex("server_initial_payload");
        ByteBuffer packet = direct ? ByteBuffer.allocateDirect(header.length + payload.length + 16)
                : ByteBuffer.allocate(header.length + payload.length + 16);
        packet.put(header).put(payload);
        PacketKeys keys = InitialSecrets.serverKeys(DCID);
        keys.seal(packet, 0, header.length, header.length, payload.length, 1);
        assertArrayEquals(hex("server_sample"), bytes(packet, 22, 16));
        HeaderProtection.apply(packet, 0, 18, keys);
        assertArrayEquals(hex("server_header"), bytes(packet, 0, header.length));
        assertArrayEquals(hex("server_initial_protected"), bytes(packet, 0, packet.capacity()));

        PacketKeys reader = InitialSecrets.serverKeys(DCID);
        assertEquals(2, HeaderProtection.remove(packet, 0, 18, reader));
        assertEquals(payload.length, reader.open(packet, 0, header.length, header.length, payload.length + 16, 1));
        assertArrayEquals(payload, bytes(packet, header.length, payload.length));
    }

    @Test
    void retryTagOfAppendixA4() {
        byte[] retry = hex("retry");
        byte[] tag = RetryIntegrity.tag(DCID, ByteBuffer.wrap(retry, 0, retry.length - 16));
        assertArrayEquals(Arrays.copyOfRange(retry, retry.length - 16, retry.length), tag);
        assertTrue(RetryIntegrity.verify(DCID, retry));
        byte[] otherDcid = DCID.clone();
        otherDcid[0] ^= 1;
        assertFalse(RetryIntegrity.verify(otherDcid, retry));
        byte[] tampered = retry.clone();
        tampered[10] ^= 1;
        assertFalse(RetryIntegrity.verify(DCID, tampered));
        assertFalse(RetryIntegrity.verify(DCID, new byte[5]));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void chachaShortHeaderOfAppendixA5(boolean direct) throws AeadException {
        PacketKeys keys = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_secret"));
        assertArrayEquals(hex("chacha_key"), keys.key());
        assertArrayEquals(hex("chacha_iv"), keys.iv());
        assertArrayEquals(hex("chacha_hp"), keys.hpKey());
        long pn = 654360564;
        ByteBuffer packet = direct ? ByteBuffer.allocateDirect(21) : ByteBuffer.allocate(21);
        packet.put(hex("chacha_unprotected_header")).put(hex("chacha_payload_plaintext"));
        assertEquals(17, keys.seal(packet, 0, 4, 4, 1, pn));
        assertArrayEquals(hex("chacha_payload_ciphertext"), bytes(packet, 4, 17));
        byte[] mask = new byte[5];
        keys.headerProtectionMask(packet, 5, mask);
        assertArrayEquals(hex("chacha_mask"), mask);
        HeaderProtection.apply(packet, 0, 1, keys);
        assertArrayEquals(hex("chacha_packet"), bytes(packet, 0, 21));

        PacketKeys reader = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_secret"));
        for (int duplicate = 0; duplicate < 2; duplicate++) { // the same packet received twice
            ByteBuffer received = wrap(hex("chacha_packet"), direct);
            assertEquals(3, HeaderProtection.remove(received, 0, 1, reader));
            assertArrayEquals(hex("chacha_unprotected_header"), bytes(received, 0, 4));
            assertEquals(1, reader.open(received, 0, 4, 4, 17, pn));
            assertEquals(1, received.get(4));
        }
    }

    @Test
    void keyUpdateKeepsHeaderProtectionKeyAndDerivesFromQuicKu() {
        PacketKeys keys = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_secret"));
        PacketKeys next = keys.nextGeneration();
        assertArrayEquals(hex("chacha_ku"), next.secret());
        assertArrayEquals(keys.hpKey(), next.hpKey());
        assertFalse(Arrays.equals(keys.key(), next.key()));
        assertFalse(Arrays.equals(keys.iv(), next.iv()));
        PacketKeys direct = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_ku"));
        assertArrayEquals(direct.key(), next.key());
        assertArrayEquals(direct.iv(), next.iv());
        assertArrayEquals(Hkdf.expandLabel("SHA-256", hex("chacha_ku"), "quic ku", new byte[0], 32),
                next.nextGeneration().secret());
    }

    @Test
    void cipherSuiteCodes() {
        assertEquals(CipherSuite.AES_256_GCM_SHA384, CipherSuite.fromTlsCode(0x1302));
        assertEquals(32, CipherSuite.AES_256_GCM_SHA384.keyLength());
        assertEquals(48, CipherSuite.AES_256_GCM_SHA384.hashLength());
        assertThrows(IllegalArgumentException.class, () -> CipherSuite.fromTlsCode(0x1304));
    }

    @Property(tries = 60)
    void everySuiteRoundTripsAndDetectsTampering(@ForAll CipherSuite suite, @ForAll @Size(min = 4, max = 1400) byte[] payload,
                                                 @ForAll @LongRange(min = 0, max = (1L << 62) - 1) long pn,
                                                 @ForAll @IntRange(min = 0, max = 1000) int flip, @ForAll boolean direct)
            throws AeadException {
        byte[] secret = new byte[suite.hashLength()];
        Arrays.fill(secret, (byte) payload.length);
        PacketKeys sender = PacketKeys.fromSecret(suite, secret);
        PacketKeys receiver = PacketKeys.fromSecret(suite, secret);
        byte[] header = Bytes.fromHex("40aabbccdd00000000");
        ByteBuffer packet = direct ? ByteBuffer.allocateDirect(header.length + payload.length + 16)
                : ByteBuffer.allocate(header.length + payload.length + 16);
        packet.put(header).put(payload);
        int ct = sender.seal(packet, 0, 5, 5, header.length - 5 + payload.length, pn);
        HeaderProtection.apply(packet, 0, 5, sender);
        byte[] wire = bytes(packet, 0, packet.capacity());

        ByteBuffer ok = wrap(wire, direct);
        assertEquals(1, HeaderProtection.remove(ok, 0, 5, receiver));
        assertEquals(ct - 16, receiver.open(ok, 0, 5, 5, ct, pn));
        assertArrayEquals(payload, bytes(ok, header.length, payload.length));

        byte[] bad = wire.clone();
        bad[header.length + flip % (bad.length - header.length)] ^= 0x20;
        ByteBuffer tampered = wrap(bad, direct);
        HeaderProtection.remove(tampered, 0, 5, receiver);
        assertThrows(AeadException.class, () -> receiver.open(tampered, 0, 5, 5, ct, pn));
    }

    @Test
    void removeReportsPacketsTooShortForTheSample() {
        PacketKeys keys = InitialSecrets.clientKeys(DCID);
        assertEquals(-1, HeaderProtection.remove(ByteBuffer.allocate(20), 0, 1, keys));
        assertEquals(-1, HeaderProtection.remove(ByteBuffer.allocate(100), 0, 1, 20, keys));
        assertThrows(AeadException.class, () -> keys.open(ByteBuffer.allocate(30), 0, 5, 5, 15, 0));
    }

    static ByteBuffer wrap(byte[] b, boolean direct) {
        if (!direct) {
            return ByteBuffer.wrap(b.clone());
        }
        ByteBuffer d = ByteBuffer.allocateDirect(b.length);
        d.put(b).clear();
        return d;
    }

    static byte[] bytes(ByteBuffer b, int offset, int length) {
        byte[] out = new byte[length];
        b.get(offset, out);
        return out;
    }
}
