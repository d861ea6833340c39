package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.HandshakeRehearsal;
import org.pacelab.quic.tls.TlsConfig;

/** The set-up threads' in-memory TLS handshake (here for TestCertificates): it completes with RSA and EC keys. */
class HandshakeRehearsalTest {
    @Test
    void completesWithAnRsaCertificate() throws Exception {
        TestCertificates.Identity id = TestCertificates.rsa();
        long bytes = HandshakeRehearsal.run(TlsConfig.server(List.of("h3", "hq-interop"), TlsConfig.ALL_SUITES,
                List.of(id.certificate()), id.key()));
        // ClientHello, ServerHello and the server's flight with its certificate, the client's Finished
        assertTrue(bytes > id.certificate().getEncoded().length + 200, "only " + bytes + " bytes");
    }

    @Test
    void completesWithAnEcCertificate() throws Exception {
        TestCertificates.Identity id = TestCertificates.ec();
        assertTrue(HandshakeRehearsal.run(TlsConfig.server(List.of("hq-interop"), TlsConfig.ALL_SUITES,
                List.of(id.certificate()), id.key())) > id.certificate().getEncoded().length);
    }

    @Test
    void aClientHelloAloneIsBuilt() {
        // RFC 8446 §4.1.2: a handshake header, version, 32-byte random, suites and extensions with an X25519 share
        assertTrue(HandshakeRehearsal.clientHello() > 4 + 2 + 32 + 32);
    }

    @Test
    void aKeyThatDoesNotMatchTheCertificateFailsTheRehearsal() {
        TestCertificates.Identity id = TestCertificates.ec();
        TestCertificates.Identity other = TestCertificates.ec();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HandshakeRehearsal.run(
                TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, List.of(id.certificate()), other.key())));
        assertTrue(e.getMessage().startsWith("the rehearsed TLS handshake failed: "), e.getMessage());
    }
}
