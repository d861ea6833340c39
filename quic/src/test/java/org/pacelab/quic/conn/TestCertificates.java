package org.pacelab.quic.conn;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Self-signed certificates for tests. */
final class TestCertificates {
    record Identity(X509Certificate certificate, java.security.PrivateKey key) {}

    private TestCertificates() {}

    static Identity ec() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return selfSigned(g.generateKeyPair(), "SHA256withECDSA");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Identity rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return selfSigned(g.generateKeyPair(), "SHA256withRSA");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Identity selfSigned(KeyPair kp, String alg) throws Exception {
        X500Name name = new X500Name("CN=localhost");
        long now = System.currentTimeMillis();
        var b = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now), new Date(now - 86_400_000L),
                new Date(now + 86_400_000L), name, kp.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
        var signer = new JcaContentSignerBuilder(alg).build(kp.getPrivate());
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signer));
        return new Identity(cert, kp.getPrivate());
    }
}
