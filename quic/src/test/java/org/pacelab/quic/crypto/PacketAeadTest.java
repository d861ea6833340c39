package org.pacelab.quic.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** libcrypto's AEAD (FFM) and the JDK's give the same bytes, and each opens what the other sealed. */
class PacketAeadTest {
    private static final int HEADER = 21;

    @Test
    void libcryptoIsAvailableOnDebianWithLibssl3() {
        // the project's machines have Debian's libssl3; without it the JDK's AEAD is used (PacketAead.forKey)
        assertTrue(LibcryptoAead.available(), "libcrypto.so.3 should load on this machine");
    }

    @ParameterizedTest
    @EnumSource(CipherSuite.class)
    void libcryptoAndJdkSealTheSameBytesAndOpenEachOther(CipherSuite suite) throws Exception {
        Random random = new Random(suite.ordinal());
        byte[] key = new byte[suite.keyLength()];
        random.nextBytes(key);
        PacketAead jdk = new JdkAead(suite, key);
        PacketAead ssl = new LibcryptoAead(suite, key);
        for (int size : new int[] {1, 15, 16, 17, 100, 1200, 1400}) {
            for (boolean direct : new boolean[] {false, true}) {
                byte[] nonce = new byte[CipherSuite.IV_LENGTH];
                random.nextBytes(nonce);
                byte[] packet = new byte[HEADER + size + CipherSuite.TAG_LENGTH];
                random.nextBytes(packet);
                ByteBuffer a = ByteBuffer.wrap(packet.clone());
                ByteBuffer b = direct ? ByteBuffer.allocateDirect(packet.length).put(packet.clone()).clear()
                        : ByteBuffer.wrap(packet.clone());
                assertEquals(size + 16, jdk.seal(a, 0, HEADER, HEADER, size, nonce, 7));
                assertEquals(size + 16, ssl.seal(b, 0, HEADER, HEADER, size, nonce, 7));
                assertArrayEquals(bytes(a), bytes(b), suite + " size " + size + (direct ? " direct" : " heap"));
                // each opens the other's packet back to the plaintext
                assertEquals(size, ssl.open(a, 0, HEADER, HEADER, size + 16, nonce, 7));
                assertEquals(size, jdk.open(b, 0, HEADER, HEADER, size + 16, nonce, 7));
                assertArrayEquals(java.util.Arrays.copyOf(packet, HEADER + size),
                        java.util.Arrays.copyOf(bytes(a), HEADER + size));
                assertArrayEquals(java.util.Arrays.copyOf(packet, HEADER + size),
                        java.util.Arrays.copyOf(bytes(b), HEADER + size));
            }
        }
    }

    /**
     * Packets as the receive path hands them over — slices of one burst buffer at different offsets, now and then
     * another buffer — with one nonce array rewritten for every packet, as {@code PacketKeys} does: libcrypto (which
     * keeps the segments of the last array and nonce) seals the JDK's bytes, opens them back to the plaintext, and
     * touches nothing outside the packet.
     */
    @ParameterizedTest
    @EnumSource(CipherSuite.class)
    void packetsInSlicesOfSharedBuffersWithOneNonceArray(CipherSuite suite) throws Exception {
        Random random = new Random(100 + suite.ordinal());
        byte[] key = new byte[suite.keyLength()];
        random.nextBytes(key);
        PacketAead jdk = new JdkAead(suite, key);
        PacketAead ssl = new LibcryptoAead(suite, key);
        byte[] nonce = new byte[CipherSuite.IV_LENGTH];
        byte[][] bursts = {new byte[8192], new byte[8192]};
        for (int i = 0; i < 24; i++) {
            random.nextBytes(nonce);
            byte[] burst = bursts[i / 5 % 2];
            random.nextBytes(burst);
            byte[] before = burst.clone();
            int size = 1 + random.nextInt(1400);
            int at = random.nextInt(burst.length - HEADER - size - 16);
            ByteBuffer slice = ByteBuffer.wrap(burst, at, HEADER + size + 16).slice();
            ByteBuffer reference = ByteBuffer.wrap(java.util.Arrays.copyOfRange(burst, at, at + HEADER + size + 16));
            jdk.seal(reference, 0, HEADER, HEADER, size, nonce, i);
            assertEquals(size + 16, ssl.seal(slice, 0, HEADER, HEADER, size, nonce, i));
            assertArrayEquals(bytes(reference), bytes(slice), "packet " + i + " at " + at);
            assertEquals(size, ssl.open(slice, 0, HEADER, HEADER, size + 16, nonce, i));
            int tag = at + HEADER + size;
            System.arraycopy(burst, tag, before, tag, 16); // the tag stays where sealing wrote it
            assertArrayEquals(before, burst, "packet " + i + ": opened back, and nothing around it changed");
        }
    }

    @ParameterizedTest
    @EnumSource(CipherSuite.class)
    void libcryptoRefusesATamperedPacketOrHeader(CipherSuite suite) {
        byte[] key = new byte[suite.keyLength()];
        PacketAead ssl = new LibcryptoAead(suite, key);
        byte[] nonce = new byte[CipherSuite.IV_LENGTH];
        for (int flip : new int[] {3, HEADER + 5, HEADER + 100 + 3}) {
            ByteBuffer p = ByteBuffer.allocate(HEADER + 100 + 16);
            ssl.seal(p, 0, HEADER, HEADER, 100, nonce, 1);
            p.put(flip, (byte) (p.get(flip) ^ 1));
            AeadException e = assertThrows(AeadException.class, () -> ssl.open(p, 0, HEADER, HEADER, 116, nonce, 1));
            assertTrue(e.getMessage().contains("packet 1"), e.getMessage());
        }
        // a good packet still opens after the failures
        ByteBuffer p = ByteBuffer.allocate(HEADER + 116);
        ssl.seal(p, 0, HEADER, HEADER, 100, nonce, 2);
        assertEquals(100, assertDoesNotThrowOpen(ssl, p, nonce));
    }

    private static int assertDoesNotThrowOpen(PacketAead aead, ByteBuffer p, byte[] nonce) {
        try {
            return aead.open(p, 0, HEADER, HEADER, 116, nonce, 2);
        } catch (AeadException e) {
            throw new AssertionError("a good packet did not open: " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.capacity()];
        b.get(0, out);
        return out;
    }
}
