package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.peer.Readiness;

class PortProbeTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void seesAUdpPortBoundByAProcess() throws Exception {
        int port = PortProbe.freePort();
        assertFalse(PortProbe.ready(SELF, new Readiness.UdpBound(port)));
        try (DatagramSocket s = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            assertTrue(PortProbe.ready(SELF, new Readiness.UdpBound(port)));
            assertFalse(PortProbe.ready(SELF, new Readiness.TcpListening(port)));
        }
    }

    @Test
    void seesAListeningTcpPort() throws Exception {
        int port = PortProbe.freePort();
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(PortProbe.ready(SELF, new Readiness.TcpListening(port)));
        }
        assertFalse(PortProbe.ready(SELF, new Readiness.TcpListening(port)));
    }

    @Test
    void aProcessThatDoesNotExistIsNotReady() {
        assertFalse(PortProbe.ready(Long.MAX_VALUE / 2, new Readiness.UdpBound(4433)));
    }
}
