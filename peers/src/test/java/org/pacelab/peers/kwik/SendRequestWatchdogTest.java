package org.pacelab.peers.kwik;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The watchdog reads Kwik 0.10.9's stream send buffers (a private field) to keep a written response watched until sent. */
class SendRequestWatchdogTest {
    @Test
    void seesTheSendBuffersOfThisKwik() {
        assertTrue(SendRequestWatchdog.seesSendBuffers(),
                "StreamOutputStreamImpl.sendBuffer not found: the watchdog would let go of responses that fit Kwik's buffer");
    }
}
