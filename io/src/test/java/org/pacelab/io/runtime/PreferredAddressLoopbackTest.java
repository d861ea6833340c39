package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.PreferredAddressConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A server with a preferred address (RFC 9000 §9.6) on loopback: two sockets; the client validates the preferred address
 * after the handshake and the rest of the download arrives from there (the endpoint counts the connection's move), or,
 * told not to, stays on the first socket.
 */
class PreferredAddressLoopbackTest {

    /** A loopback port no socket holds now (the server binds it right after). */
    private static InetSocketAddress freeLoopbackPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
    }

    @ParameterizedTest
    @CsvSource({"native,true", "jdk,true", "native,false"})
    void aDownloadCompletesAfterTheClientMovedToThePreferredAddress(String socket, boolean clientMoves) throws Exception {
        SendConfig send = SendConfig.fromOptions(Map.of(SendConfig.SOCKET, socket));
        var id = Certificates.selfSigned(List.of("localhost"));
        InetSocketAddress preferred = freeLoopbackPort();
        ConnectionConfig server = LoopbackTransferTest.config(TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(),
                id.key())).withPreferredAddress(PreferredAddressConfig.of(preferred));
        ConnectionConfig client = LoopbackTransferTest.config(TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost",
                null, false)).withUsePreferredAddress(clientMoves);
        long size = 8L << 20;
        try (QuicServer s = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), preferred, server, SyntheticContent.only(),
                false, 8 << 20, send, r -> {})) {
            assertEquals(preferred, s.preferredLocalAddress());
            DigestSink sink = new DigestSink();
            InetSocketAddress addr = s.localAddress();
            QuicClient.Outcome o = QuicClient.download(addr, client,
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/" + size)), sink, 60_000_000_000L,
                    8 << 20, send);
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(LoopbackTransferTest.patternSha256(size), sink.sha256.get("/bytes/" + size));
            // the connection moved to the preferred address's path once (no other path changes on loopback)
            assertEquals(clientMoves ? 1L : 0L, s.counters().get("peer_address_changes"), s.counters().toString());
        }
    }

    @org.junit.jupiter.api.Test
    void aStartThatFailsAfterThePreferredSocketIsBoundClosesIt() throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        InetSocketAddress preferred = freeLoopbackPort();
        ConnectionConfig server = LoopbackTransferTest.config(TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(),
                id.key())).withPreferredAddress(PreferredAddressConfig.of(preferred));
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> QuicServer.start(listen, preferred, server,
                    SyntheticContent.only(), false, 1 << 20, SendConfig.DEFAULT, r -> {}).close());
        }
        // the preferred address's socket, bound first, was closed: its port is free again
        try (DatagramSocket again = new DatagramSocket(preferred)) {
            assertEquals(preferred.getPort(), again.getLocalPort());
        }
    }
}
