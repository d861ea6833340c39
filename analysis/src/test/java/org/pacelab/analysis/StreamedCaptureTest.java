package org.pacelab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The scan's recording of the capture's start (StreamedCapture.Counting): a byte read is a byte kept. */
class StreamedCaptureTest {
    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void theScanIsGivenNoMoreBytesThanAreKeptThenTheEndAndTheOverflowIsSeen() throws IOException {
        byte[] data = bytes(1000);
        StreamedCapture.Counting c = new StreamedCapture.Counting(new ByteArrayInputStream(data), 64);
        c.recording = new ByteArrayOutputStream();
        byte[] buf = new byte[100];
        assertEquals(64, c.read(buf, 0, 100), "a read is cut at the room left");
        assertFalse(c.overflow);
        assertEquals(-1, c.read(buf, 0, 100), "then the scan sees the end");
        assertEquals(-1, c.read());
        assertTrue(c.overflow, "and the overflow is known");
        assertEquals(64, c.count, "no byte was read without being kept");
        assertArrayEquals(Arrays.copyOf(data, 64), c.recording.toByteArray());
    }

    @Test
    void withinTheLimitEveryByteIsCountedAndKept() throws IOException {
        byte[] data = bytes(50);
        StreamedCapture.Counting c = new StreamedCapture.Counting(new ByteArrayInputStream(data), 64);
        c.recording = new ByteArrayOutputStream();
        byte[] buf = new byte[100];
        assertEquals(50, c.read(buf, 0, 100));
        assertEquals(-1, c.read(buf, 0, 100));
        assertFalse(c.overflow, "the stream's own end is no overflow");
        assertEquals(50, c.count);
        assertArrayEquals(data, c.recording.toByteArray());
        c.recording = null; // the pass reads on without a limit
        assertEquals(-1, c.read(buf, 0, 100));
    }
}
