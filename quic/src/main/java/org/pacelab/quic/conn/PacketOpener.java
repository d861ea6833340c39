package org.pacelab.quic.conn;

import java.nio.ByteBuffer;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.StatelessReset;

/**
 * Removes the protection of a received packet, in place in the datagram (RFC 9001 §5): header protection (§5.4), the
 * packet number (RFC 9000 §17.1, Appendix A.3), the 1-RTT key phase (RFC 9001 §6), the AEAD (§5.3), then checks the
 * reserved bits (RFC 9000 §17.2, §17.3.1). The counterpart of {@link PacketBuilder#seal}.
 */
final class PacketOpener {
    private PacketOpener() {}

    /** What opening a packet gave. */
    sealed interface Result permits Opened, Failed {}

    /**
     * The payload is decrypted in place at {@code payloadOffset}; {@code keyPhase}: a 1-RTT packet's key phase bit (0
     * for other packets); {@code nextGeneration}: a 1-RTT packet of the peer's next key generation (a key update, RFC
     * 9001 §6.2).
     */
    record Opened(long packetNumber, int payloadOffset, int payloadLength, int keyPhase, boolean nextGeneration)
            implements Result {}

    /**
     * The packet is dropped for {@code trigger} (qlog's packet_dropped trigger). {@code resetTail}: for a 1-RTT packet
     * that failed to decrypt, its last 16 bytes as they arrived, maybe a stateless reset token (RFC 9000 §10.3.1); else
     * null.
     */
    record Failed(String trigger, byte[] resetTail) implements Result {}

    private static final Failed KEY_UNAVAILABLE = new Failed("key_unavailable", null);
    private static final Failed SAMPLE_MISSING = new Failed("header_protection_sample_missing", null);

    /**
     * Opens packet {@code p} of {@code level} in {@code dg}; {@code largestReceived} is the largest packet number
     * received in its space so far (-1 for none).
     *
     * @throws QuicException PROTOCOL_VIOLATION when a reserved header bit is set in an authenticated packet
     */
    static Result open(ByteBuffer dg, ParsedPacket p, EncryptionLevel level, KeySchedule keys, long largestReceived)
            throws QuicException {
        PacketType type = p.type();
        int headerStart = p.headerStart();
        int pnOffset = p.pnOffset();
        int packetEnd = p.packetEnd();
        byte[] resetTail = null;
        if (type == PacketType.ONE_RTT && packetEnd - headerStart >= StatelessReset.MIN_LENGTH) {
            // read before decryption overwrites it
            resetTail = new byte[16];
            dg.get(packetEnd - 16, resetTail);
        }
        PacketKeys hpKeys = level == EncryptionLevel.INITIAL ? keys.initialRx(p.version()) : keys.rx(level);
        if (hpKeys == null) {
            return KEY_UNAVAILABLE;
        }
        int pnLen = HeaderProtection.remove(dg, headerStart, pnOffset, packetEnd, hpKeys);
        if (pnLen < 0) {
            return SAMPLE_MISSING;
        }
        long truncated = PacketNumbers.read(dg, pnOffset, pnLen);
        long pn = PacketNumbers.decode(largestReceived, truncated, pnLen);
        int firstByte = dg.get(headerStart) & 0xff;
        PacketKeys rxKeys = hpKeys;
        boolean nextGeneration = false;
        int phase = 0;
        if (type == PacketType.ONE_RTT) {
            phase = (firstByte >> 2) & 1;
            rxKeys = keys.rxFor(phase, pn);
            nextGeneration = keys.isNextGeneration(phase, pn);
            if (rxKeys == null) {
                return KEY_UNAVAILABLE;
            }
        }
        int payloadOffset = pnOffset + pnLen;
        int plainLength;
        try {
            plainLength = rxKeys.open(dg, headerStart, payloadOffset - headerStart, payloadOffset, packetEnd - payloadOffset, pn);
        } catch (AeadException e) {
            return new Failed("payload_decrypt_error", resetTail);
        }
        // RFC 9000 §17.2, §17.3.1: reserved bits must be zero after header protection is removed
        int reservedMask = type == PacketType.ONE_RTT ? 0x18 : 0x0c;
        if ((firstByte & reservedMask) != 0) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, "reserved header bits set in a " + type + " packet");
        }
        return new Opened(pn, payloadOffset, plainLength, phase, nextGeneration);
    }
}
