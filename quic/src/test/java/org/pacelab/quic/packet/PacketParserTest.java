package org.pacelab.quic.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.crypto.Rfc9001Vectors.DCID;
import static org.pacelab.quic.crypto.Rfc9001Vectors.hex;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.wire.Bytes;

class PacketParserTest {
    private static final byte[] SERVER_CID = Bytes.fromHex("f067a5502a4262b5");

    @Test
    void parsesClientInitialOfRfc9001A2() throws QuicException {
        ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(hex("client_initial_protected")), 0, 8);
        assertEquals(PacketType.INITIAL, p.type());
        assertEquals(QuicVersion.V1, p.version());
        assertTrue(p.supportedVersion() && p.isLongHeader());
        assertArrayEquals(DCID, p.dcid());
        assertEquals(0, p.scid().length);
        assertEquals(0, p.token().length);
        assertEquals(1182, p.length());
        assertEquals(18, p.pnOffset());
        assertEquals(1200, p.packetEnd());
        LongHeader h = p.longHeader();
        assertEquals(new LongHeader(PacketType.INITIAL, 1, DCID, new byte[0], new byte[0], 1182, 18, 0, 1200), h);
    }

    /** Walks a datagram holding the A.3 server Initial coalesced with the A.5 short-header packet. */
    @Test
    void walksCoalescedPacketsAndDecryptsEach() throws QuicException, AeadException {
        byte[] initial = hex("server_initial_protected");
        byte[] shortPacket = hex("chacha_packet");
        ByteBuffer datagram = ByteBuffer.allocate(initial.length + shortPacket.length);
        datagram.put(initial).put(shortPacket).flip();

        List<ParsedPacket> packets = new ArrayList<>();
        for (int at = 0; at < datagram.limit(); ) {
            ParsedPacket p = PacketParser.parse(datagram, at, 0);
            packets.add(p);
            at = p.packetEnd();
        }
        assertEquals(2, packets.size());
        ParsedPacket first = packets.get(0);
        assertEquals(PacketType.INITIAL, first.type());
        assertArrayEquals(SERVER_CID, first.scid());
        assertEquals(0, first.dcid().length);
        assertEquals(0x75, first.length());
        assertEquals(18, first.pnOffset());
        assertEquals(initial.length, first.packetEnd());
        ParsedPacket second = packets.get(1);
        assertEquals(PacketType.ONE_RTT, second.type());
        assertEquals(initial.length, second.headerStart());
        assertEquals(initial.length + 1, second.pnOffset());
        assertEquals(datagram.limit(), second.packetEnd());

        // Initial: remove protection within the packet's bounds, decode packet number and frames
        PacketKeys initialKeys = InitialSecrets.serverKeys(DCID);
        int pnLength = HeaderProtection.remove(datagram, first.headerStart(), first.pnOffset(), first.packetEnd(), initialKeys);
        assertEquals(2, pnLength);
        long pn = PacketNumbers.decode(-1, PacketNumbers.read(datagram, first.pnOffset(), pnLength), pnLength);
        assertEquals(1, pn);
        int payloadStart = first.pnOffset() + pnLength;
        int plain = initialKeys.open(datagram, first.headerStart(), payloadStart - first.headerStart(), payloadStart,
                first.packetEnd() - payloadStart, pn);
        List<Frame> frames = FrameCodec.decodeAll(datagram.duplicate().limit(payloadStart + plain).position(payloadStart));
        assertEquals(2, frames.size());
        AckFrame ack = assertInstanceOf(AckFrame.class, frames.get(0));
        assertTrue(ack.acks(0));
        CryptoFrame crypto = assertInstanceOf(CryptoFrame.class, frames.get(1));
        assertEquals(0, crypto.offset());
        assertEquals(90, crypto.data().length);

        // 1-RTT: ChaCha20 keys of A.5
        PacketKeys oneRtt = PacketKeys.fromSecret(CipherSuite.CHACHA20_POLY1305_SHA256, hex("chacha_secret"));
        int shortPnLength = HeaderProtection.remove(datagram, second.headerStart(), second.pnOffset(), second.packetEnd(), oneRtt);
        assertEquals(3, shortPnLength);
        long shortPn = PacketNumbers.decode(654360563L, PacketNumbers.read(datagram, second.pnOffset(), 3), 3);
        assertEquals(654360564L, shortPn);
        int start = second.pnOffset() + 3;
        assertEquals(1, oneRtt.open(datagram, second.headerStart(), start - second.headerStart(), start, second.packetEnd() - start, shortPn));
        assertEquals(PingFrame.INSTANCE, FrameCodec.decode(datagram.duplicate().limit(start + 1).position(start)));
    }

    @Test
    void walksTwoCoalescedInitials() throws QuicException {
        byte[] a = hex("client_initial_protected");
        byte[] b = hex("server_initial_protected");
        ByteBuffer d = ByteBuffer.allocate(a.length + b.length).put(a).put(b).flip();
        ParsedPacket first = PacketParser.parse(d, 0, 8);
        ParsedPacket second = PacketParser.parse(d, first.packetEnd(), 8);
        assertEquals(a.length, second.headerStart());
        assertEquals(d.limit(), second.packetEnd());
        assertArrayEquals(SERVER_CID, second.scid());
    }

    @Test
    void parsesAndBuildsRetryOfRfc9001A4() throws QuicException {
        byte[] retry = hex("retry");
        ByteBuffer d = ByteBuffer.wrap(retry);
        ParsedPacket p = PacketParser.parse(d, 0, 0);
        assertEquals(PacketType.RETRY, p.type());
        assertEquals(-1, p.pnOffset());
        assertEquals(0, p.dcid().length);
        assertArrayEquals(SERVER_CID, p.scid());
        assertEquals("token", new String(p.token(), StandardCharsets.US_ASCII));
        assertArrayEquals(Arrays.copyOfRange(retry, retry.length - 16, retry.length), p.retryIntegrityTag());
        assertTrue(Retry.verify(d, p, DCID));
        assertFalse(Retry.verify(d, p, SERVER_CID));
        assertArrayEquals(retry, Retry.build(QuicVersion.V1, new byte[0], SERVER_CID, DCID, "token".getBytes(StandardCharsets.US_ASCII), 0xf));
        byte[] built = Retry.build(QuicVersion.V1, DCID, SERVER_CID, DCID, new byte[] {1, 2, 3});
        ParsedPacket q = PacketParser.parse(ByteBuffer.wrap(built), 0, 0);
        assertEquals(0xf0, built[0] & 0xff);
        assertTrue(Retry.verify(ByteBuffer.wrap(built), q, DCID));
    }

    @Test
    void versionNegotiationRoundTrip() throws QuicException {
        int[] versions = {QuicVersion.V1, QuicVersion.reserved(0x12345678)};
        byte[] vn = VersionNegotiation.build(Bytes.fromHex("0102"), DCID, versions, 0xff);
        assertEquals(0xc0 | 0x3f, vn[0] & 0xff);
        ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(vn), 0, 0);
        assertEquals(PacketType.VERSION_NEGOTIATION, p.type());
        assertEquals(0, p.version());
        assertArrayEquals(Bytes.fromHex("0102"), p.dcid());
        assertArrayEquals(DCID, p.scid());
        assertArrayEquals(versions, p.versions());
        assertArrayEquals(versions, VersionNegotiation.versions(vn));
        assertTrue(QuicVersion.isReservedForNegotiation(versions[1]));
        assertThrows(MalformedPacketException.class, () -> VersionNegotiation.versions(Arrays.copyOf(vn, vn.length - 1)));
    }

    @Test
    void unsupportedVersionIsReportedWithInvariantFields() throws QuicException {
        byte[] header = Bytes.fromHex("c0" + "1a2a3a4a" + "15" + "00".repeat(21) + "02" + "abcd" + "ffff");
        ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(header), 0, 0);
        assertFalse(p.supportedVersion());
        assertNull(p.type());
        assertEquals(0x1a2a3a4a, p.version());
        assertEquals(21, p.dcid().length);
        assertArrayEquals(Bytes.fromHex("abcd"), p.scid());
        assertEquals(header.length, p.packetEnd());
        assertThrows(IllegalStateException.class, p::longHeader);
    }

    @Test
    void rejectsMalformedHeaders() {
        byte[] a2 = hex("client_initial_protected");
        // fixed bit clear
        byte[] noFixed = a2.clone();
        noFixed[0] &= (byte) ~0x40;
        assertThrows(MalformedPacketException.class, () -> PacketParser.parse(ByteBuffer.wrap(noFixed), 0, 8));
        // v1 DCID length 21
        byte[] longCid = Bytes.fromHex("c000000001" + "15" + "00".repeat(21) + "00" + "00" + "4100" + "00");
        assertThrows(MalformedPacketException.class, () -> PacketParser.parse(ByteBuffer.wrap(longCid), 0, 8));
        // Length beyond the datagram
        assertThrows(MalformedPacketException.class, () -> PacketParser.parse(ByteBuffer.wrap(a2, 0, 1199), 0, 8));
        // short header too short for its connection ID
        assertThrows(MalformedPacketException.class, () -> PacketParser.parse(ByteBuffer.wrap(Bytes.fromHex("4001020304")), 0, 8));
        MalformedPacketException e = assertThrows(MalformedPacketException.class,
                () -> PacketParser.parse(ByteBuffer.wrap(new byte[0]), 0, 8));
        assertEquals(0, e.offset());
    }

    @Test
    void headerWritersProduceParsablePackets() throws QuicException {
        ByteBuffer out = ByteBuffer.allocate(200);
        byte[] token = Bytes.fromHex("aabbcc");
        int lengthOffset = PacketWriter.writeLongHeader(out, PacketType.INITIAL, QuicVersion.V1, DCID, SERVER_CID, token, 2, 2);
        assertEquals(PacketWriter.longHeaderLength(PacketType.INITIAL, DCID, SERVER_CID, token, 2), out.position());
        int pnOffset = out.position();
        PacketNumbers.write(out, 7, 2);
        out.put(new byte[40]);
        PacketWriter.patchLength(out, lengthOffset, out.position() - pnOffset);
        out.flip();
        ParsedPacket p = PacketParser.parse(out, 0, 8);
        assertEquals(PacketType.INITIAL, p.type());
        assertArrayEquals(token, p.token());
        assertArrayEquals(SERVER_CID, p.scid());
        assertEquals(pnOffset, p.pnOffset());
        assertEquals(42, p.length());
        assertEquals(0xc1, out.get(0) & 0xff);

        ByteBuffer hs = ByteBuffer.allocate(100);
        int lo = PacketWriter.writeLongHeader(hs, PacketType.HANDSHAKE, QuicVersion.V1, DCID, SERVER_CID, null, 4, 4);
        hs.put(new byte[30]);
        PacketWriter.patchLength(hs, lo, 30);
        ParsedPacket h = PacketParser.parse(hs.flip(), 0, 8);
        assertEquals(PacketType.HANDSHAKE, h.type());
        assertEquals(lo + 4, h.pnOffset());
        assertEquals(0xe3, hs.get(0) & 0xff);

        ByteBuffer s = ByteBuffer.allocate(50);
        PacketWriter.writeShortHeader(s, true, true, DCID, 4);
        assertEquals(0x40 | 0x20 | 0x04 | 0x03, s.get(0) & 0xff);
        s.put(new byte[24]);
        ParsedPacket sp = PacketParser.parse(s.flip(), 0, 8);
        assertEquals(PacketType.ONE_RTT, sp.type());
        assertArrayEquals(DCID, sp.dcid());
        assertEquals(9, sp.pnOffset());
        assertThrows(IllegalArgumentException.class,
                () -> PacketWriter.writeLongHeader(ByteBuffer.allocate(100), PacketType.HANDSHAKE, 1, DCID, DCID, token, 1, 2));
    }

    @Test
    void peeksDestinationConnectionIds() {
        assertArrayEquals(DCID, PacketParser.peekDestinationConnectionId(ByteBuffer.wrap(hex("client_initial_protected")), 5));
        byte[] shortPacket = Bytes.fromHex("41" + "0102030405" + "00".repeat(20));
        assertArrayEquals(Bytes.fromHex("0102030405"), PacketParser.peekDestinationConnectionId(ByteBuffer.wrap(shortPacket), 5));
        assertNull(PacketParser.peekDestinationConnectionId(ByteBuffer.wrap(Bytes.fromHex("c000000001")), 5));
        assertNull(PacketParser.peekDestinationConnectionId(ByteBuffer.wrap(Bytes.fromHex("4101")), 5));
        assertNull(PacketParser.peekDestinationConnectionId(ByteBuffer.allocate(0), 5));
    }

    @Test
    void statelessReset() {
        byte[] token = Bytes.fromHex("00112233445566778899aabbccddeeff");
        byte[] reset = StatelessReset.build(43, token, new SplittableRandom(1));
        assertEquals(43, reset.length);
        assertEquals(0x40, reset[0] & 0xc0);
        assertTrue(StatelessReset.looksLikeReset(reset, token));
        assertTrue(StatelessReset.looksLikeReset(ByteBuffer.wrap(reset), token));
        byte[] other = token.clone();
        other[15] ^= 1;
        assertFalse(StatelessReset.looksLikeReset(reset, other));
        assertFalse(StatelessReset.looksLikeReset(Arrays.copyOfRange(reset, 23, 43), token));
        assertThrows(IllegalArgumentException.class, () -> StatelessReset.build(20, token, new SplittableRandom(1)));
        assertFalse(Arrays.equals(reset, StatelessReset.build(43, token, new SplittableRandom(2))));
    }

    @Property(tries = 3000)
    void randomBytesNeverThrowUncheckedExceptions(@ForAll @Size(max = 80) byte[] junk, @ForAll @IntRange(min = -2, max = 90) int offset,
                                                  @ForAll @IntRange(min = -1, max = 21) int dcidLength) {
        parseEverything(junk, offset, dcidLength);
    }

    @Property(tries = 3000)
    void mutatedValidPacketsNeverThrowUncheckedExceptions(@ForAll @IntRange(min = 0, max = 3) int which,
                                                          @ForAll @IntRange(min = 0, max = 1300) int cut,
                                                          @ForAll @IntRange(min = 0, max = 1300) int flipAt,
                                                          @ForAll byte flip, @ForAll @IntRange(min = 0, max = 20) int dcidLength) {
        byte[] base = hex(switch (which) {
            case 0 -> "client_initial_protected";
            case 1 -> "server_initial_protected";
            case 2 -> "retry";
            default -> "chacha_packet";
        });
        byte[] mutated = Arrays.copyOf(base, Math.min(base.length, cut));
        if (mutated.length > 0) {
            mutated[flipAt % mutated.length] ^= flip;
        }
        parseEverything(mutated, 0, dcidLength);
    }

    private static void parseEverything(byte[] datagram, int offset, int dcidLength) {
        ByteBuffer d = ByteBuffer.wrap(datagram);
        PacketParser.peekDestinationConnectionId(d, dcidLength);
        int at = offset;
        for (int i = 0; i < 100 && at < datagram.length; i++) {
            try {
                ParsedPacket p = PacketParser.parse(d, at, dcidLength);
                assertTrue(p.packetEnd() > at && p.packetEnd() <= datagram.length, "packet end inside the datagram");
                if (p.type() == PacketType.RETRY) {
                    Retry.verify(d, p, DCID);
                }
                at = p.packetEnd();
            } catch (MalformedPacketException expected) {
                return;
            }
        }
    }
}
