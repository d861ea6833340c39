package org.pacelab.quic.h3;

import java.nio.ByteBuffer;
import java.util.List;

import org.pacelab.quic.h3.qpack.DecoderStreamReceiver;
import org.pacelab.quic.h3.qpack.EncoderStreamReceiver;
import org.pacelab.quic.h3.qpack.FieldSectionDecoder;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.h3.qpack.QpackException;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of what an HTTP/3 peer sends: the frames of a stream in arbitrary pieces (RFC 9114 §7),
 * QPACK field sections (RFC 9204 §4.5) read as a request or a response head, and the QPACK encoder and decoder
 * streams. Only {@link H3Exception} and {@link QpackException} (which close with the RFC's error code) may come out.
 */
class H3WireFuzzTest {
    private static final FrameReader.Sink SINK = new FrameReader.Sink() {
        @Override
        public void frameStarted(long type, long length) { }

        @Override
        public void dataPayload(ByteBuffer payload) {
            payload.position(payload.limit());
        }

        @Override
        public void frameComplete(H3Frame frame) { }
    };

    @FuzzTest(maxDuration = "10s")
    void streamFrames(FuzzedDataProvider input) {
        FrameReader reader = new FrameReader(input.consumeInt(0, 1 << 16));
        try {
            while (input.remainingBytes() > 0) {
                byte[] piece = input.consumeBytes(input.consumeInt(1, 64));
                ByteBuffer b = ByteBuffer.wrap(piece);
                reader.consume(b, SINK);
                if (b.hasRemaining()) {
                    throw new AssertionError("FrameReader left " + b.remaining() + " bytes unconsumed");
                }
            }
        } catch (H3Exception e) {
            // closes the connection with its code
        }
    }

    @FuzzTest(maxDuration = "10s")
    void qpack(FuzzedDataProvider input) {
        int which = input.consumeInt(0, 2);
        byte[] data = input.consumeRemainingAsBytes();
        try {
            switch (which) {
                case 0 -> {
                    List<HeaderField> fields = FieldSectionDecoder.decode(ByteBuffer.wrap(data));
                    try {
                        RequestHead.parse(fields);
                    } catch (MalformedMessageException e) {
                        // answered with H3_MESSAGE_ERROR
                    }
                    try {
                        ResponseHead.parse(fields);
                    } catch (MalformedMessageException e) {
                        // answered with H3_MESSAGE_ERROR
                    }
                }
                case 1 -> new EncoderStreamReceiver().receive(ByteBuffer.wrap(data));
                default -> new DecoderStreamReceiver().receive(ByteBuffer.wrap(data));
            }
        } catch (QpackException e) {
            // closes the connection with its code
        }
    }
}
