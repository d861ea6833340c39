package org.pacelab.quic.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

/**
 * A stream's receive side fed STREAM data as the receive path hands it over — a view of the decrypted packet — with
 * the final-size rules of RFC 9000 §4.5 and the stream's flow control (§4.1).
 */
class QuicStreamReceiveTest {
    private static final long WINDOW = 1000;

    private static QuicStream stream() {
        // a peer-initiated unidirectional stream (id 3: server-initiated, as a client sees it): receive side only
        return new QuicStream(3, false, true, 0, 0, WINDOW, WINDOW);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return b;
    }

    private static byte[] readAll(QuicStream s) {
        ByteBuffer dst = ByteBuffer.allocate(4096);
        while (s.read(dst) > 0) {
            // until nothing more is readable, or the end of the stream
        }
        return Arrays.copyOf(dst.array(), dst.position());
    }

    private static long errorOf(QuicException e) {
        return e.errorCode();
    }

    @Test
    void dataIsCopiedFromThePacketAndReturnsTheNewBytesForConnectionFlowControl() throws QuicException {
        QuicStream s = stream();
        byte[] packet = new byte[64];
        byte[] data = bytes(40);
        System.arraycopy(data, 0, packet, 20, 40);
        ByteBuffer view = ByteBuffer.wrap(packet).position(5);
        assertEquals(30, s.onStreamFrame(0, view, 20, 30, false));
        assertEquals(5, view.position(), "the packet's position is not moved");
        Arrays.fill(packet, (byte) 0);
        assertArrayEquals(Arrays.copyOf(data, 30), readAll(s), "the stream holds its own copy");
        assertEquals(0, s.onStreamFrame(10, ByteBuffer.wrap(data), 10, 20, false), "a retransmission below the highest offset");
        assertEquals(10, s.onStreamFrame(30, ByteBuffer.wrap(data), 30, 10, true), "10 bytes beyond the highest offset");
        assertArrayEquals(Arrays.copyOfRange(data, 30, 40), readAll(s));
        assertEquals(-1, s.read(ByteBuffer.allocate(8)), "the FIN was read");
        assertEquals(QuicStream.RecvState.DATA_READ, s.recvState());
    }

    @Test
    void outOfOrderAndDuplicateFramesUpToTheFin() throws QuicException {
        QuicStream s = stream();
        byte[] data = bytes(300);
        s.onStreamFrame(200, ByteBuffer.wrap(data), 200, 100, true);
        assertEquals(QuicStream.RecvState.SIZE_KNOWN, s.recvState());
        s.onStreamFrame(100, ByteBuffer.wrap(data), 100, 150, false);
        s.onStreamFrame(100, ByteBuffer.wrap(data), 100, 150, false);
        assertEquals(0, readAll(s).length, "a gap at 0..100");
        s.onStreamFrame(0, ByteBuffer.wrap(data), 0, 120, false);
        assertEquals(QuicStream.RecvState.DATA_RECVD, s.recvState());
        assertArrayEquals(data, readAll(s));
        assertEquals(QuicStream.RecvState.DATA_READ, s.recvState());
    }

    @Test
    void dataBeyondTheFinalSizeIsAFinalSizeError() throws QuicException {
        QuicStream s = stream();
        s.onStreamFrame(0, new byte[100], true);
        QuicException e = assertThrows(QuicException.class, () -> s.onStreamFrame(100, new byte[1], false));
        assertEquals(TransportError.FINAL_SIZE_ERROR.code, errorOf(e));
        // the error holds "even after a stream is closed" (RFC 9000 §4.5): once read to the end too
        readAll(s);
        assertEquals(TransportError.FINAL_SIZE_ERROR.code,
                errorOf(assertThrows(QuicException.class, () -> s.onStreamFrame(90, new byte[20], false))));
    }

    @Test
    void aChangedFinalSizeIsAFinalSizeError() throws QuicException {
        QuicStream s = stream();
        s.onStreamFrame(0, new byte[100], true);
        assertEquals(TransportError.FINAL_SIZE_ERROR.code,
                errorOf(assertThrows(QuicException.class, () -> s.onStreamFrame(50, new byte[40], true))), "smaller");
        assertEquals(TransportError.FINAL_SIZE_ERROR.code,
                errorOf(assertThrows(QuicException.class, () -> s.onResetStream(0, 120))), "a RESET_STREAM's larger");
        s.onStreamFrame(50, new byte[50], true); // the same final size again is no error
    }

    @Test
    void aFinalSizeBelowTheDataReceivedIsAFinalSizeError() throws QuicException {
        QuicStream s = stream();
        s.onStreamFrame(500, new byte[10], false);
        assertEquals(TransportError.FINAL_SIZE_ERROR.code,
                errorOf(assertThrows(QuicException.class, () -> s.onStreamFrame(0, new byte[100], true))));
        assertEquals(TransportError.FINAL_SIZE_ERROR.code,
                errorOf(assertThrows(QuicException.class, () -> s.onResetStream(0, 400))));
    }

    @Test
    void dataBeyondTheAdvertisedLimitIsAFlowControlErrorAndIsNotStored() throws QuicException {
        QuicStream s = stream();
        byte[] data = bytes((int) WINDOW + 1);
        assertEquals(WINDOW, s.onStreamFrame(0, ByteBuffer.wrap(data), 0, (int) WINDOW, false), "up to the limit is fine");
        QuicException e = assertThrows(QuicException.class, () -> s.onStreamFrame(WINDOW, ByteBuffer.wrap(data), 0, 1, false));
        assertEquals(TransportError.FLOW_CONTROL_ERROR.code, errorOf(e));
        byte[] read = readAll(s);
        assertEquals(WINDOW, read.length, "nothing of the violating frame was stored");
        assertArrayEquals(Arrays.copyOf(data, (int) WINDOW), read);
    }

    @Test
    void dataAfterAResetIsCountedButNotStored() throws QuicException {
        QuicStream s = stream();
        s.onStreamFrame(0, new byte[10], false);
        s.onResetStream(7, 200);
        assertTrue(s.takePeerReset());
        assertEquals(0, s.onStreamFrame(10, new byte[50], false), "within the final size, nothing new to count");
        assertEquals(-1, s.read(ByteBuffer.allocate(100)), "a reset stream reads as ended, its data dropped");
    }
}
