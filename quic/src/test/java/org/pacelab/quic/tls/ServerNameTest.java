package org.pacelab.quic.tls;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.EncryptionLevel;

/** RFC 6066 §3: no IP address in server_name (GnuTLS refuses "::1" with illegal_parameter). */
class ServerNameTest {
    private static final TlsHandshake.Listener NONE = new TlsHandshake.Listener() {
        @Override public void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] c, byte[] s) { }
        @Override public void onPeerTransportParameters(byte[] encoded) { }
        @Override public void onHandshakeComplete() { }
    };

    private static String clientHello(String serverName) throws Exception {
        TlsHandshake h = TlsHandshake.client(TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, serverName, null, false),
                new byte[0], NONE, KeyLogSink.NONE);
        h.start();
        org.pacelab.quic.stream.SendBuffer b = h.outgoing(EncryptionLevel.INITIAL);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate((int) b.writeOffset());
        b.copy(0, (int) b.writeOffset(), out);
        return new String(out.array(), 0, out.position(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void addressesAreNotSentAsServerNames() throws Exception {
        assertTrue(TlsHandshake.isIpLiteral("::1"));
        assertTrue(TlsHandshake.isIpLiteral("127.0.0.1"));
        assertFalse(TlsHandshake.isIpLiteral("server6"));
        assertFalse(clientHello("::1").contains("::1"));
        assertFalse(clientHello("127.0.0.1").contains("127.0.0.1"));
        assertTrue(clientHello("example.org").contains("example.org"));
    }
}
