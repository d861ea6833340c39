package org.pacelab.quic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.TransportParameters.PreferredAddress;
import org.pacelab.quic.wire.Bytes;
import org.pacelab.quic.wire.VarInt;

class TransportParametersTest {
    private static final byte[] TOKEN = Bytes.fromHex("00112233445566778899aabbccddeeff");

    static TransportParameters full() {
        return TransportParameters.builder()
                .originalDestinationConnectionId(Bytes.fromHex("8394c8f03e515708"))
                .maxIdleTimeout(30_000)
                .statelessResetToken(TOKEN)
                .maxUdpPayloadSize(1472)
                .initialMaxData(10_000_000)
                .initialMaxStreamDataBidiLocal(1_000_000)
                .initialMaxStreamDataBidiRemote(2_000_000)
                .initialMaxStreamDataUni(3_000_000)
                .initialMaxStreamsBidi(100)
                .initialMaxStreamsUni(1L << 60)
                .ackDelayExponent(20)
                .maxAckDelay((1 << 14) - 1)
                .disableActiveMigration(true)
                .preferredAddress(new PreferredAddress(new byte[] {10, 0, 0, 1}, 4433, new byte[16], 0, Bytes.fromHex("0102030405"), TOKEN))
                .activeConnectionIdLimit(8)
                .initialSourceConnectionId(Bytes.fromHex("f067a5502a4262b5"))
                .retrySourceConnectionId(new byte[0])
                .build();
    }

    static byte[] param(long id, byte[] value) {
        ByteBuffer b = ByteBuffer.allocate(16 + value.length);
        VarInt.write(b, id);
        VarInt.write(b, value.length);
        b.put(value);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    static byte[] intParam(long id, long v) {
        ByteBuffer b = ByteBuffer.allocate(8);
        VarInt.write(b, v);
        return param(id, java.util.Arrays.copyOf(b.array(), b.position()));
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    static QuicException rejected(byte[] data, boolean sentByServer) {
        QuicException e = assertThrows(QuicException.class, () -> TransportParameters.decode(data, sentByServer));
        assertEquals(TransportError.TRANSPORT_PARAMETER_ERROR.code, e.errorCode(), e.getMessage());
        return e;
    }

    @Test
    void fullRoundTrip() throws QuicException {
        TransportParameters p = full();
        assertEquals(p, TransportParameters.decode(p.encode(), true));
        assertEquals(p.hashCode(), TransportParameters.decode(p.encode(), true).hashCode());
    }

    @Test
    void defaultsAreImpliedAndNotEncoded() throws QuicException {
        TransportParameters d = TransportParameters.decode(new byte[0], false);
        assertEquals(65527, d.maxUdpPayloadSize());
        assertEquals(3, d.ackDelayExponent());
        assertEquals(25, d.maxAckDelay());
        assertEquals(2, d.activeConnectionIdLimit());
        assertNull(d.initialSourceConnectionId());
        assertNull(d.preferredAddress());
        assertEquals(0, TransportParameters.builder().build().encode().length);
        assertEquals(d, TransportParameters.builder().build());
    }

    @Test
    void minAckDelayAnnouncesAckFrequencySupport() throws QuicException {
        // draft-ietf-quic-ack-frequency §3: id 0xff04de1b, microseconds
        TransportParameters p = TransportParameters.builder().minAckDelay(1000).build();
        assertEquals(1000, TransportParameters.decode(p.encode(), false).minAckDelay());
        assertEquals(-1, TransportParameters.decode(new byte[0], false).minAckDelay());
        assertEquals("min_ack_delay", TransportParameters.nameOf(TransportParameters.MIN_ACK_DELAY));
        // not above max_ack_delay (25 ms by default): TRANSPORT_PARAMETER_ERROR
        rejected(intParam(TransportParameters.MIN_ACK_DELAY, 25_001), false);
        assertEquals(25_000, TransportParameters.decode(intParam(TransportParameters.MIN_ACK_DELAY, 25_000), false).minAckDelay());
        rejected(concat(intParam(TransportParameters.MAX_ACK_DELAY, 5), intParam(TransportParameters.MIN_ACK_DELAY, 6000)), true);
    }

    @Test
    void unknownAndGreaseParametersAreIgnored() throws QuicException {
        byte[] data = concat(param(31 * 5 + 27, new byte[] {1, 2, 3}), intParam(TransportParameters.INITIAL_MAX_DATA, 5000),
                param(0x2ab2, new byte[0]), param(0x20, new byte[40]));
        assertEquals(5000, TransportParameters.decode(data, false).initialMaxData());
    }

    @Test
    void duplicatesAreRejected() {
        rejected(concat(intParam(TransportParameters.INITIAL_MAX_DATA, 1), intParam(TransportParameters.INITIAL_MAX_DATA, 2)), false);
        rejected(concat(param(0x5a5a, new byte[0]), param(0x5a5a, new byte[0])), false);
    }

    @Test
    void serverOnlyParametersFromClientAreRejected() {
        for (int id : new int[] {TransportParameters.ORIGINAL_DESTINATION_CONNECTION_ID, TransportParameters.STATELESS_RESET_TOKEN,
                TransportParameters.RETRY_SOURCE_CONNECTION_ID}) {
            byte[] value = id == TransportParameters.STATELESS_RESET_TOKEN ? TOKEN : new byte[] {1, 2};
            assertTrue(rejected(param(id, value), false).getMessage().contains(TransportParameters.nameOf(id)));
        }
        byte[] preferred = TransportParameters.builder()
                .preferredAddress(new PreferredAddress(new byte[4], 0, new byte[16], 0, new byte[] {9}, TOKEN)).build().encode();
        rejected(preferred, false);
    }

    @Test
    void aPreferredAddressFromAServerWithAZeroLengthConnectionIdIsRejected() throws QuicException {
        PreferredAddress pa = new PreferredAddress(new byte[] {10, 0, 0, 1}, 4433, new byte[16], 0, new byte[] {9, 9}, TOKEN);
        byte[] zeroLength = TransportParameters.builder().preferredAddress(pa).initialSourceConnectionId(new byte[0])
                .build().encode();
        QuicException e = rejected(zeroLength, true);
        assertEquals(TransportError.TRANSPORT_PARAMETER_ERROR.code, e.errorCode());
        assertTrue(e.getMessage().contains("zero-length"), e.getMessage());
        // a server with a connection ID may offer one; one with a zero-length ID may offer none
        byte[] withId = TransportParameters.builder().preferredAddress(pa).initialSourceConnectionId(new byte[] {7})
                .build().encode();
        assertNotNull(TransportParameters.decode(withId, true).preferredAddress());
        assertNull(TransportParameters.decode(TransportParameters.builder().initialSourceConnectionId(new byte[0]).build()
                .encode(), true).preferredAddress());
    }

    @Test
    void badLengthsAreRejected() {
        // integer whose varint is shorter than the declared length
        rejected(param(TransportParameters.INITIAL_MAX_DATA, new byte[] {0x05, 0x00}), false);
        // integer truncated inside its varint
        rejected(param(TransportParameters.INITIAL_MAX_DATA, new byte[] {(byte) 0x80, 0x00}), false);
        // empty integer
        rejected(param(TransportParameters.MAX_IDLE_TIMEOUT, new byte[0]), false);
        // token of 15 bytes
        rejected(param(TransportParameters.STATELESS_RESET_TOKEN, new byte[15]), true);
        // disable_active_migration with content
        rejected(param(TransportParameters.DISABLE_ACTIVE_MIGRATION, new byte[] {1}), false);
        // connection ID of 21 bytes
        rejected(param(TransportParameters.INITIAL_SOURCE_CONNECTION_ID, new byte[21]), false);
        // length beyond the data
        rejected(Bytes.fromHex("0410" + "00"), false);
        // header truncated
        rejected(Bytes.fromHex("40"), false);
        rejected(Bytes.fromHex("04"), false);
        // preferred address: zero-length and inconsistent connection ID lengths
        byte[] pa = TransportParameters.builder()
                .preferredAddress(new PreferredAddress(new byte[4], 0, new byte[16], 0, new byte[] {9, 9}, TOKEN)).build().encode();
        byte[] zeroCid = pa.clone();
        zeroCid[2 + 24] = 0;
        rejected(zeroCid, true);
        byte[] longerCid = pa.clone();
        longerCid[2 + 24] = 3;
        rejected(longerCid, true);
        rejected(param(TransportParameters.PREFERRED_ADDRESS, new byte[30]), true);
    }

    @Test
    void outOfRangeValuesAreRejected() {
        rejected(intParam(TransportParameters.MAX_UDP_PAYLOAD_SIZE, 1199), false);
        rejected(intParam(TransportParameters.ACK_DELAY_EXPONENT, 21), false);
        rejected(intParam(TransportParameters.MAX_ACK_DELAY, 1 << 14), false);
        rejected(intParam(TransportParameters.ACTIVE_CONNECTION_ID_LIMIT, 1), false);
        rejected(intParam(TransportParameters.INITIAL_MAX_STREAMS_BIDI, (1L << 60) + 1), false);
        rejected(intParam(TransportParameters.INITIAL_MAX_STREAMS_UNI, (1L << 60) + 1), false);
        assertThrows(IllegalArgumentException.class, () -> TransportParameters.builder().maxUdpPayloadSize(1000).build());
        assertThrows(IllegalArgumentException.class, () -> TransportParameters.builder().statelessResetToken(new byte[3]).build());
    }

    @Test
    void acceptsBoundaryValues() throws QuicException {
        byte[] data = concat(intParam(TransportParameters.MAX_UDP_PAYLOAD_SIZE, 1200), intParam(TransportParameters.ACK_DELAY_EXPONENT, 20),
                intParam(TransportParameters.MAX_ACK_DELAY, (1 << 14) - 1), intParam(TransportParameters.ACTIVE_CONNECTION_ID_LIMIT, 2),
                intParam(TransportParameters.INITIAL_MAX_STREAMS_BIDI, 1L << 60));
        TransportParameters p = TransportParameters.decode(data, false);
        assertEquals(1200, p.maxUdpPayloadSize());
        assertEquals(1L << 60, p.initialMaxStreamsBidi());
    }

    @Provide
    Arbitrary<TransportParameters> parameters() {
        Arbitrary<Long> any = Arbitraries.longs().between(0, VarInt.MAX);
        Arbitrary<byte[]> cid = Arbitraries.bytes().array(byte[].class).ofMaxSize(20).injectNull(0.3);
        Arbitrary<byte[]> token = Arbitraries.bytes().array(byte[].class).ofSize(16);
        Arbitrary<PreferredAddress> pa = Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(4),
                Arbitraries.integers().between(0, 65535), Arbitraries.bytes().array(byte[].class).ofSize(16),
                Arbitraries.integers().between(0, 65535), Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(20), token)
                .as(PreferredAddress::new).injectNull(0.5);
        Arbitrary<TransportParameters.Builder> ints = Combinators.combine(any, Arbitraries.longs().between(1200, VarInt.MAX), any, any,
                any, any, Arbitraries.longs().between(0, 1L << 60), Arbitraries.longs().between(0, 1L << 60))
                .as((idle, udp, data, bl, br, uni, sb, su) -> TransportParameters.builder().maxIdleTimeout(idle).maxUdpPayloadSize(udp)
                        .initialMaxData(data).initialMaxStreamDataBidiLocal(bl).initialMaxStreamDataBidiRemote(br)
                        .initialMaxStreamDataUni(uni).initialMaxStreamsBidi(sb).initialMaxStreamsUni(su));
        return Combinators.combine(ints, Arbitraries.longs().between(0, 20), Arbitraries.longs().between(0, (1 << 14) - 1),
                Arbitraries.longs().between(2, VarInt.MAX), Arbitraries.of(true, false), pa, cid, cid)
                .as((b, exp, delay, limit, dam, p, c1, c2) -> b.ackDelayExponent(exp).maxAckDelay(delay).activeConnectionIdLimit(limit)
                        .disableActiveMigration(dam).preferredAddress(p).originalDestinationConnectionId(c1)
                        // §18.2: a server with a zero-length connection ID offers no preferred address
                        .initialSourceConnectionId(p != null && c2 != null && c2.length == 0 ? new byte[] {1} : c2)
                        .retrySourceConnectionId(c1 == null ? null : c2)
                        .statelessResetToken(p == null ? null : p.statelessResetToken()).build());
    }

    @Property(tries = 500)
    void roundTrips(@ForAll("parameters") TransportParameters p) throws QuicException {
        byte[] enc = p.encode();
        assertEquals(p, TransportParameters.decode(enc, true));
        TransportParameters fromClient = p.toBuilder().originalDestinationConnectionId(null).statelessResetToken(null)
                .preferredAddress(null).retrySourceConnectionId(null).build();
        assertEquals(fromClient, TransportParameters.decode(fromClient.encode(), false));
    }

    @Property(tries = 2000)
    void randomBytesYieldParametersOrTransportParameterError(@ForAll @Size(max = 60) byte[] junk, @ForAll boolean server) {
        try {
            TransportParameters.decode(junk, server);
        } catch (QuicException e) {
            assertEquals(TransportError.TRANSPORT_PARAMETER_ERROR.code, e.errorCode());
        }
    }

    @Test
    void preferredAddressIsKept() throws QuicException {
        PreferredAddress pa = full().preferredAddress();
        TransportParameters back = TransportParameters.decode(full().encode(), true);
        assertArrayEquals(pa.ipv4Address(), back.preferredAddress().ipv4Address());
        assertEquals(4433, back.preferredAddress().ipv4Port());
        assertArrayEquals(Bytes.fromHex("0102030405"), back.preferredAddress().connectionId());
    }

    @Test
    void versionInformationOfRfc9368RoundTripsAndIsChecked() throws QuicException {
        TransportParameters.VersionInformation vi = new TransportParameters.VersionInformation(0x1, new int[] {0x6b3343cf, 0x1});
        TransportParameters p = TransportParameters.builder().versionInformation(vi).build();
        byte[] encoded = p.encode();
        // id 0x11, length 12, chosen v1, available v2 then v1
        assertEquals("110c000000016b3343cf00000001", Bytes.hex(encoded));
        TransportParameters back = TransportParameters.decode(encoded, false);
        assertEquals(vi, back.versionInformation());
        assertTrue(back.versionInformation().offers(0x6b3343cf));
        assertEquals(p, back);
        for (String bad : new String[] {"1103000001", "110400000000", "110800000001" + "00000000", "1100"}) {
            QuicException e = assertThrows(QuicException.class, () -> TransportParameters.decode(Bytes.fromHex(bad), true), bad);
            assertEquals(TransportError.TRANSPORT_PARAMETER_ERROR.code, e.errorCode(), bad);
        }
    }
}
