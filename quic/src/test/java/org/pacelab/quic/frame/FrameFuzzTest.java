package org.pacelab.quic.frame;

import java.nio.ByteBuffer;
import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.packet.PacketType;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of a decrypted packet payload: {@link FrameCodec#decodeAll} raises only
 * {@link QuicException}; every frame it returns re-encodes to bytes that decode to the same frame, and the RFC 9000
 * §12.4 table answers for it in every packet type.
 */
class FrameFuzzTest {
    private static final PacketType[] TYPES = {PacketType.INITIAL, PacketType.HANDSHAKE, PacketType.ZERO_RTT, PacketType.ONE_RTT};

    @FuzzTest(maxDuration = "10s")
    void payload(byte[] data) {
        List<Frame> frames;
        try {
            frames = FrameCodec.decodeAll(ByteBuffer.wrap(data));
        } catch (QuicException e) {
            return;
        }
        for (Frame f : frames) {
            for (PacketType t : TYPES) {
                FrameRules.allowedIn(f, t);
            }
            ByteBuffer out = ByteBuffer.allocate(FrameCodec.encodedLength(f));
            FrameCodec.encode(f, out);
            if (out.hasRemaining()) {
                throw new AssertionError(f + ": encodedLength says " + out.capacity() + ", encode wrote " + out.position());
            }
            Frame again;
            try {
                again = FrameCodec.decode(out.flip());
            } catch (QuicException e) {
                throw new AssertionError(f + " does not decode after re-encoding: " + e.getMessage(), e);
            }
            if (!again.equals(f)) {
                throw new AssertionError(f + " decodes as " + again + " after re-encoding");
            }
        }
    }
}
