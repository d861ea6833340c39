package org.pacelab.quic.h3.qpack;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QpackStreamReceiverTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void encoderStreamAcceptsCapacityZero() {
        EncoderStreamReceiver r = new EncoderStreamReceiver();
        assertDoesNotThrow(() -> r.receive(ByteBuffer.wrap(HEX.parseHex("202020"))));
    }

    /** RFC 9204 Appendix B.2 to B.4 encoder instructions, and a capacity of 1. */
    @ParameterizedTest
    @ValueSource(strings = {"3fbd01", "21", "c00f7777772e6578616d706c652e636f6d", "4a637573746f6d2d6b6579",
            "02"})
    void encoderStreamRefusesDynamicTableUse(String hex) {
        EncoderStreamReceiver r = new EncoderStreamReceiver();
        QpackException e = assertThrows(QpackException.class, () -> r.receive(ByteBuffer.wrap(HEX.parseHex(hex))));
        assertEquals(QpackError.QPACK_ENCODER_STREAM_ERROR, e.error());
    }

    @Test
    void decoderStreamAcceptsStreamCancellationsSplitAnywhere() throws QpackException {
        // Stream Cancellation 8 (RFC 9204 B.4), then one with a multi-byte stream ID (63 + 1000).
        byte[] bytes = HEX.parseHex("48" + "7fe807");
        DecoderStreamReceiver r = new DecoderStreamReceiver();
        for (byte b : bytes) {
            r.receive(ByteBuffer.wrap(new byte[] {b}));
        }
        r.receive(ByteBuffer.wrap(bytes));
    }

    @ParameterizedTest
    @ValueSource(strings = {"84", "01", "00", "7fffffffffffffffffffff01"})
    void decoderStreamRefusesAcknowledgmentsIncrementsAndOverlongIntegers(String hex) {
        DecoderStreamReceiver r = new DecoderStreamReceiver();
        QpackException e = assertThrows(QpackException.class, () -> r.receive(ByteBuffer.wrap(HEX.parseHex(hex))));
        assertEquals(QpackError.QPACK_DECODER_STREAM_ERROR, e.error());
    }
}
