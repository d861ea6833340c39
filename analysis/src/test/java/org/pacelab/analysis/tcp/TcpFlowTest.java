package org.pacelab.analysis.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TcpFlowTest {
    @Test
    void resentBytesAreRetransmissionsAcrossTheSequenceWrap() {
        TcpFlow f = new TcpFlow(null);
        long seq = 0xffff_ff00L;
        assertFalse(f.onServerData(seq, 0x80));
        assertFalse(f.onServerData(seq + 0x80, 0x100));                  // wraps past 2^32
        assertFalse(f.onServerData((seq + 0x180) & 0xffffffffL, 100));   // continues after the wrap
        assertTrue(f.onServerData(seq + 0x80, 0x100));                   // resends pre-wrap bytes
        assertTrue(f.onServerData((seq + 0x180) & 0xffffffffL, 50));     // partial resend
        assertFalse(f.onServerData((seq + 0x180 + 100) & 0xffffffffL, 10));
        assertFalse(f.onServerData(12345, 0));                          // pure ACK: not data
        assertEquals(2, f.retransmissions());
        assertEquals(6, f.dataSegments());
    }
}
