package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketWriter;

/**
 * One packet being written in place into a datagram buffer (RFC 9000 §17): {@link #start} writes the header
 * and the packet number, frames go into {@link #payload()}, {@link #finish} closes the payload and leaves room
 * for the AEAD tag (so that a coalesced packet can follow), and {@link #seal} encrypts it and applies header
 * protection once the datagram is complete. Data packets and CONNECTION_CLOSE packets are built the same way.
 * quinn's {@code PacketBuilder} and ngtcp2's {@code ngtcp2_ppe} do this job.
 */
final class PacketBuilder {
    /** AEAD tag length of every QUIC v1 cipher suite (RFC 9001 §5.3). */
    static final int TAG_LENGTH = 16;
    private static final byte[] EMPTY = new byte[0];

    final EncryptionLevel level;
    final long packetNumber;
    /** Where the packet starts in the datagram buffer. */
    final int headerStart;
    private final int pnLength;
    private final int pnOffset;
    private final int lengthOffset;
    private final int payloadStart;
    private int payloadEnd = -1;
    private final ByteBuffer payload;
    private final List<Frame> frames;
    private boolean ackEliciting;
    private boolean carriesAck;
    private boolean inFlight;

    /** What the header of a packet says besides its level and number ({@code version} goes in long headers). */
    record Header(int version, byte[] dcid, byte[] scid, byte[] initialToken, boolean keyPhase) {}

    private PacketBuilder(ByteBuffer out, EncryptionLevel level, long packetNumber, long largestAcked, Header header,
                          int room, int expectedFrames) {
        this.level = level;
        this.packetNumber = packetNumber;
        this.pnLength = PacketNumbers.encodedLength(packetNumber, largestAcked);
        this.headerStart = out.position();
        if (level == EncryptionLevel.ONE_RTT) {
            PacketWriter.writeShortHeader(out, header.keyPhase(), false, header.dcid(), pnLength);
            this.lengthOffset = -1;
        } else {
            byte[] token = level == EncryptionLevel.INITIAL ? header.initialToken() : EMPTY;
            this.lengthOffset = PacketWriter.writeLongHeader(out, level.packetType(), header.version(), header.dcid(),
                    header.scid(), token, pnLength, 2);
        }
        this.pnOffset = out.position();
        PacketNumbers.write(out, packetNumber, pnLength);
        this.payloadStart = out.position();
        this.payload = out.duplicate();
        payload.limit(headerStart + room - TAG_LENGTH);
        this.frames = new ArrayList<>(expectedFrames);
    }

    /**
     * Writes a packet's header and packet number at the buffer's position.
     *
     * @param largestAcked the largest packet number the peer acknowledged in this space (sizes the packet number)
     * @param room         bytes the whole packet may take, tag included
     */
    static PacketBuilder start(ByteBuffer out, EncryptionLevel level, long packetNumber, long largestAcked, Header header,
                               int room, int expectedFrames) {
        return new PacketBuilder(out, level, packetNumber, largestAcked, header, room, expectedFrames);
    }

    /** Where frames are written; its limit keeps room for the AEAD tag. */
    ByteBuffer payload() { return payload; }

    /** Bytes left for frames. */
    int remaining() { return payload.remaining(); }

    /** Encodes a frame into the payload and records it. */
    void write(Frame f) {
        FrameCodec.encode(f, payload);
        record(f);
    }

    /** Records a frame the caller encoded into {@link #payload()} itself (stream and CRYPTO data). */
    void record(Frame f) {
        frames.add(f);
        ackEliciting |= f.ackEliciting();
        carriesAck |= f instanceof AckFrame;
        inFlight |= f.countsInFlight();
    }

    /** Writes {@code n} PADDING bytes into the payload. */
    void pad(int n) {
        for (int i = 0; i < n; i++) {
            payload.put((byte) 0);
        }
        record(new PaddingFrame(n));
    }

    /** The frames written so far (what the packet carries, for loss recovery and qlog). */
    List<Frame> frames() { return frames; }

    boolean isEmpty() { return frames.isEmpty(); }

    boolean ackEliciting() { return ackEliciting; }

    /** Whether an ACK frame was written. */
    boolean carriesAck() { return carriesAck; }

    boolean inFlight() { return inFlight; }

    /** Gives up the packet: the buffer's position goes back to where it started. */
    void abandon(ByteBuffer out) {
        out.position(headerStart);
    }

    /**
     * Ends the payload: pads it so that header protection has its sample (RFC 9001 §5.4.2) and moves the
     * buffer's position past the room for the AEAD tag.
     */
    void finish(ByteBuffer out) {
        int minPayload = 4 - pnLength;
        while (payload.position() - payloadStart < minPayload) {
            payload.put((byte) 0);
        }
        payloadEnd = payload.position();
        out.position(payloadEnd + TAG_LENGTH);
    }

    /** Adds {@code n} PADDING bytes to a finished packet (the last of a datagram), moving its tag room behind them. */
    void padFinished(ByteBuffer out, int n) {
        out.position(payloadEnd);
        for (int i = 0; i < n; i++) {
            out.put((byte) 0);
        }
        payloadEnd += n;
        out.position(payloadEnd + TAG_LENGTH);
        record(new PaddingFrame(n));
    }

    /** Patches the Length field, encrypts the payload and applies header protection; returns the packet's size. */
    int seal(ByteBuffer out, PacketKeys keys) {
        int payloadLength = payloadEnd - payloadStart;
        if (lengthOffset >= 0) {
            PacketWriter.patchLength(out, lengthOffset, pnLength + payloadLength + TAG_LENGTH);
        }
        int cipherLength = keys.seal(out, headerStart, payloadStart - headerStart, payloadStart, payloadLength, packetNumber);
        HeaderProtection.apply(out, headerStart, pnOffset, keys);
        return payloadStart + cipherLength - headerStart;
    }

    /** RFC 9000 §14.1: a datagram carrying an Initial packet is at least 1200 bytes; its last packet is padded. */
    static void padInitialDatagram(ByteBuffer out, int start, int room, List<PacketBuilder> built) {
        int size = out.position() - start;
        int target = Math.min(ConnectionConfig.MIN_INITIAL_SIZE, room);
        if (size < target) {
            built.get(built.size() - 1).padFinished(out, target - size);
        }
    }
}
