package org.pacelab.quic.packet;

import java.nio.ByteBuffer;

import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing (Jazzer) of a received datagram's way up to the payload: packet parsing of coalesced
 * packets, Version Negotiation and Retry, header protection removal with the Initial keys of the packet's own
 * Destination Connection ID, packet-number decoding and the AEAD. Bad input may only raise the checked exceptions
 * the code declares; anything else is a finding. Seeds and regression inputs: {@code PacketFuzzTestInputs/}.
 */
class PacketFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void datagram(byte[] data) {
        ByteBuffer datagram = ByteBuffer.wrap(data);
        int offset = 0;
        for (int i = 0; i < 16 && offset < data.length; i++) {
            ParsedPacket p;
            try {
                p = PacketParser.parse(datagram, offset, 8);
            } catch (MalformedPacketException e) {
                return;
            }
            if (p.packetEnd() <= offset || p.packetEnd() > data.length) {
                throw new AssertionError("packet end " + p.packetEnd() + " outside (" + offset + ", " + data.length + "]");
            }
            if (p.type() == null) {
                return; // a version we do not speak: nothing more to read (a server answers with Version Negotiation)
            }
            switch (p.type()) {
                case VERSION_NEGOTIATION -> {
                    try {
                        VersionNegotiation.versions(java.util.Arrays.copyOfRange(data, p.headerStart(), p.packetEnd()));
                    } catch (MalformedPacketException e) {
                        // reported, as it should be
                    }
                }
                case RETRY -> Retry.verify(datagram, p, p.dcid());
                case INITIAL, HANDSHAKE, ZERO_RTT, ONE_RTT -> unprotect(datagram.duplicate(), p);
                default -> { }
            }
            PacketParser.peekDestinationConnectionId(datagram.duplicate().position(offset), 8);
            if (p.type() == PacketType.ONE_RTT || !p.isLongHeader()) {
                return;
            }
            offset = p.packetEnd();
        }
    }

    /** Header protection and the AEAD with keys derived from the packet's DCID (what a server does with an Initial). */
    private static void unprotect(ByteBuffer copyOfDatagram, ParsedPacket p) {
        byte[] bytes = new byte[copyOfDatagram.capacity()];
        copyOfDatagram.get(0, bytes);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        PacketKeys keys = InitialSecrets.clientKeys(p.dcid());
        int pnLength = HeaderProtection.remove(b, p.headerStart(), p.pnOffset(), p.packetEnd(), keys);
        if (pnLength < 0) {
            return;
        }
        if (pnLength > 4) {
            throw new AssertionError("packet number length " + pnLength);
        }
        long truncated = PacketNumbers.read(b, p.pnOffset(), pnLength);
        PacketNumbers.decode(0, truncated, pnLength);
        int payload = p.pnOffset() + pnLength;
        int length = p.packetEnd() - payload;
        if (length < 16) {
            return;
        }
        try {
            keys.open(b, p.headerStart(), payload - p.headerStart(), payload, length, truncated);
        } catch (AeadException e) {
            // forged: dropped
        }
    }
}
