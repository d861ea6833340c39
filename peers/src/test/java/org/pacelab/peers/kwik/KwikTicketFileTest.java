package org.pacelab.peers.kwik;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.ClientTls;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;

import tech.kwik.core.impl.QuicSessionTicketImpl;

/**
 * The session ticket file is checked against Kwik 0.10.9's layout before Kwik reads it: Kwik itself allocates its
 * length fields unchecked, so a garbled file was an out-of-memory error and a short one a BufferUnderflowException.
 */
class KwikTicketFileTest {
    /** A ticket in the layout of {@link KwikTicketFile}: {@code ticketLength} bytes of ticket, a 32-byte PSK, AES-128-GCM. */
    static byte[] ticket(int ticketLength) {
        ByteBuffer tls = ByteBuffer.allocate(KwikTicketFile.TLS_FIXED + ticketLength + 32);
        tls.putLong(1_764_800_000_000L).putLong(0x12345678L).putInt(ticketLength).put(filled(ticketLength, 7))
                .putInt(32).put(filled(32, 9)).putInt(7200).putShort((short) 0x1301).putLong(0);
        ByteBuffer b = ByteBuffer.allocate(4 + tls.capacity() + KwikTicketFile.TRANSPORT_PARAMETERS);
        b.putInt(tls.capacity()).put(tls.array())
                .putLong(30_000).putInt(1452).putLong(16 << 20).putLong(8 << 20).putLong(8 << 20).putLong(8 << 20)
                .putLong(100).putLong(10).put((byte) 0).putInt(4).putInt(0); // and Kwik's 4 unused bytes
        return b.array();
    }

    private static byte[] filled(int n, int v) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) v);
        return a;
    }

    @Test
    void theLayoutIsKwiksOwn() {
        byte[] t = ticket(96);
        assertNull(KwikTicketFile.problem(t));
        // Kwik reads it and writes the same bytes back: the layout the check follows is the one Kwik serializes (with a
        // max_early_data_size of 0: a ticket Kwik read writes 0 there, it keeps no early data extension)
        assertArrayEquals(t, QuicSessionTicketImpl.deserialize(t).serialize());
        assertEquals("TLS_AES_128_GCM_SHA256", QuicSessionTicketImpl.deserialize(t).getCipher().name());
    }

    @Test
    void everyTruncationAndEveryExtraByteIsRefused() {
        byte[] t = ticket(96);
        for (int n = 0; n < t.length; n++) {
            assertNotNull(KwikTicketFile.problem(Arrays.copyOf(t, n)), "the first " + n + " bytes");
        }
        assertNotNull(KwikTicketFile.problem(Arrays.copyOf(t, t.length + 1)), "one byte more");
    }

    @Test
    void lengthFieldsBeyondTheFileAreRefusedWithoutAllocatingThem() {
        byte[] t = ticket(96);
        ByteBuffer.wrap(t).putInt(0, 0x7fff_fff0); // Kwik: new byte[2 GiB]
        assertTrue(KwikTicketFile.problem(t).startsWith("its TLS ticket length 2147483632 does not match"),
                KwikTicketFile.problem(t));
        t = ticket(96);
        ByteBuffer.wrap(t).putInt(0, -1);
        assertTrue(KwikTicketFile.problem(t).startsWith("its TLS ticket length 4294967295"), KwikTicketFile.problem(t));
        t = ticket(96);
        ByteBuffer.wrap(t).putInt(4 + 16, 0x7fff_ffff); // the inner ticket length
        assertEquals("its ticket length 2147483647 is not 1..65535", KwikTicketFile.problem(t));
        t = ticket(96);
        ByteBuffer.wrap(t).putInt(4 + 16, 200);
        assertEquals("its ticket length 200 runs past the end of the TLS ticket", KwikTicketFile.problem(t));
        t = ticket(96);
        ByteBuffer.wrap(t).putShort(4 + 16 + 4 + 96 + 4 + 32 + 4, (short) 0x1399); // no such suite: Kwik's orElseThrow
        assertEquals("its cipher suite 0x1399 is not a TLS 1.3 suite Kwik knows", KwikTicketFile.problem(t));
    }

    /** What the check lets through, Kwik reads: random damage to a ticket, 5000 times (fixed seed). */
    @Test
    void whatTheCheckAcceptsKwikReads() {
        Random random = new Random(20261204);
        int accepted = 0;
        for (int i = 0; i < 5000; i++) {
            byte[] t = ticket(1 + random.nextInt(200));
            switch (random.nextInt(3)) {
                case 0 -> t[random.nextInt(t.length)] = (byte) random.nextInt(256);
                case 1 -> { // a length field, set to something near the truth or anything
                    int at = new int[] {0, 20, 24 + ByteBuffer.wrap(t).getInt(20)}[random.nextInt(3)];
                    int v = random.nextBoolean() ? ByteBuffer.wrap(t).getInt(at) + random.nextInt(9) - 4 : random.nextInt();
                    ByteBuffer.wrap(t).putInt(at, v);
                }
                default -> t = Arrays.copyOf(t, random.nextInt(t.length + 8));
            }
            if (KwikTicketFile.problem(t) == null) {
                accepted++;
                byte[] ok = t;
                assertDoesNotThrow(() -> QuicSessionTicketImpl.deserialize(ok), "accepted, but Kwik cannot read it: "
                        + java.util.HexFormat.of().formatHex(ok));
            }
        }
        assertTrue(accepted > 0, "some damage (a byte of the ticket or of a parameter) leaves a readable ticket");
    }

    @Test
    void readSaysWhichFileWhatIsWrongAndWhatIsValid(@TempDir Path dir) throws Exception {
        assertNull(KwikTicketFile.read(dir.resolve("none.ticket")), "no file yet: no ticket");
        Path good = Files.write(dir.resolve("good.ticket"), ticket(50));
        assertArrayEquals(ticket(50), KwikTicketFile.read(good));
        Path empty = Files.write(dir.resolve("empty.ticket"), new byte[0]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KwikTicketFile.read(empty));
        assertEquals("--session-ticket " + empty + " is not a Kwik session ticket: the file is empty; valid: a ticket file "
                + "written by an earlier run of pacelab peer kwik-client --session-ticket, or a path where none exists yet "
                + "(the connection then writes one there)", e.getMessage());
        Path big = Files.write(dir.resolve("big.ticket"), new byte[KwikTicketFile.MAX_FILE + 1]);
        e = assertThrows(IllegalArgumentException.class, () -> KwikTicketFile.read(big));
        assertTrue(e.getMessage().contains(big + " is not a Kwik session ticket: it is longer than any ticket"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> KwikTicketFile.read(dir));
        assertTrue(e.getMessage().startsWith("--session-ticket " + dir + " is not a regular file; valid: "), e.getMessage());
    }

    /** The client refuses a bad ticket before it opens a socket, as an IllegalArgumentException naming the file. */
    @Test
    void theClientRefusesABadTicketBeforeConnecting(@TempDir Path dir) throws Exception {
        byte[] t = ticket(96);
        Path garbled = Files.write(dir.resolve("garbled.ticket"), Arrays.copyOf(t, t.length - 10));
        var server = new InetSocketAddress("127.0.0.1", 9);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KwikClient.download(server,
                new ClientTls("hq-interop", "localhost", null, true), List.of(new DownloadRequest("localhost:9", "/x")),
                DownloadSink.DISCARD, KwikOptions.defaults().withKeyLog(dir.resolve("keys.log")),
                KwikFeatures.client(List.of(), false, false, garbled, false), 1_000_000_000L));
        assertTrue(e.getMessage().startsWith("--session-ticket " + garbled + " is not a Kwik session ticket: "), e.getMessage());
        assertTrue(Files.notExists(dir.resolve("keys.log")), "nothing written");
    }
}
