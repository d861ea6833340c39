package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;

import org.junit.jupiter.api.Test;

class PortProbeSocketTest {
    @Test
    void aProcessTalksOnceItHasAnInternetSocket() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            assertFalse(PortProbe.hasInternetSocket(sleeper.pid()));
        } finally {
            sleeper.destroy();
        }
        try (DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            assertTrue(PortProbe.hasInternetSocket(ProcessHandle.current().pid()));
        }
        assertFalse(PortProbe.hasInternetSocket(Long.MAX_VALUE / 2), "no such process");
    }
}
