package org.pacelab.io.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Server identities: a certificate chain and key read from PEM files (RSA or EC; PKCS#8, PKCS#1 or SEC1
 * keys), or a self-signed EC P-256 certificate generated on start; and trust managers from CA files.
 */
public final class Certificates {
    /** A certificate chain (leaf first) with the leaf's private key. */
    public record Identity(List<X509Certificate> chain, PrivateKey key) {
        public X509Certificate leaf() {
            return chain.get(0);
        }
    }

    private Certificates() {}

    /** Reads a PEM certificate chain and a PEM private key; errors name the file and what was expected. */
    public static Identity load(Path certFile, Path keyFile) throws IOException {
        List<X509Certificate> chain = readCertificates(certFile);
        if (chain.isEmpty()) {
            throw new IOException(certFile + ": no PEM CERTIFICATE block found (expected -----BEGIN CERTIFICATE-----)");
        }
        PrivateKey key = readPrivateKey(keyFile);
        String certAlg = chain.get(0).getPublicKey().getAlgorithm();
        if (!certAlg.equals(key.getAlgorithm())) {
            throw new IOException(keyFile + ": a " + key.getAlgorithm() + " key does not match the " + certAlg
                    + " certificate in " + certFile);
        }
        return new Identity(chain, key);
    }

    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        List<X509Certificate> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(new JcaX509CertificateConverter().getCertificate(h));
                }
            }
        } catch (java.security.cert.CertificateException | RuntimeException e) {
            throw new IOException(file + ": not a readable PEM certificate file (" + e.getMessage() + ")", e);
        }
        return out;
    }

    public static PrivateKey readPrivateKey(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o;
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            while ((o = p.readObject()) != null) {
                if (o instanceof PEMKeyPair kp) {
                    // SEC1 "EC PRIVATE KEY" blocks may omit the public key; the private key info suffices
                    return conv.getPrivateKey(kp.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return conv.getPrivateKey(info);
                }
            }
        } catch (RuntimeException e) {
            throw new IOException(file + ": not a readable PEM private key (" + e.getMessage() + ")", e);
        }
        throw new IOException(file + ": no unencrypted PEM private key found (expected PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
    }

    /** Generates a self-signed EC P-256 certificate for the given DNS names and IP addresses. */
    public static Identity selfSigned(List<String> names) {
        long now = System.currentTimeMillis();
        return selfSigned(names, new SecureRandom(), now - 3_600_000L, BigInteger.valueOf(now));
    }

    /**
     * Generates a self-signed EC P-256 certificate valid from {@code notBeforeMillis} for a year and an hour, drawing the
     * key and the signature from {@code random}: with a seeded generator and fixed times the certificate is the
     * same every time (the simulator's deterministic runs need that).
     */
    public static Identity selfSigned(List<String> names, SecureRandom random, long notBeforeMillis, BigInteger serial) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), random);
            return selfSigned(names, g.generateKeyPair(), "SHA256withECDSA", random, notBeforeMillis, serial);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Generates a self-signed RSA 2048 certificate for the given names: the kind every third-party peer reads
     * (GnuTLS, OpenSSL, Kwik, which takes only RSA keys).
     */
    public static Identity selfSignedRsa(List<String> names) {
        try {
            SecureRandom random = new SecureRandom();
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048, random);
            long now = System.currentTimeMillis();
            return selfSigned(names, g.generateKeyPair(), "SHA256withRSA", random, now - 3_600_000L, BigInteger.valueOf(now));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    private static Identity selfSigned(List<String> names, KeyPair kp, String signatureAlgorithm, SecureRandom random,
                                       long notBeforeMillis, BigInteger serial) {
        try {
            X500Name subject = new X500Name("CN=" + (names.isEmpty() ? "pacelab" : names.get(0)));
            var builder = new JcaX509v3CertificateBuilder(subject, serial, new Date(notBeforeMillis),
                    new Date(notBeforeMillis + 3_600_000L + 365L * 86_400_000L), subject, kp.getPublic());
            List<GeneralName> sans = new ArrayList<>();
            for (String n : names) {
                sans.add(n.matches("[0-9.]+|.*:.*") ? new GeneralName(GeneralName.iPAddress, n) : new GeneralName(GeneralName.dNSName, n));
            }
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
            var signer = new JcaContentSignerBuilder(signatureAlgorithm).setSecureRandom(random).build(kp.getPrivate());
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(builder.build(signer));
            return new Identity(List.of(cert), kp.getPrivate());
        } catch (java.security.GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /**
     * A chain of {@code length} RSA 2048 certificates below a root CA, as the QUIC Interop Runner's {@code certs.sh}
     * makes one: the leaf for {@code names}, signed by intermediate {@code length - 1}, ..., signed by intermediate 1,
     * signed by the root, which is not part of the chain. For a chain longer than one the leaf also carries
     * {@code padNames} random 250-letter DNS names, which the runner adds so that the server's first flight far
     * exceeds three times the client's Initial (its amplification-limit test). Returns the chain leaf first with the
     * leaf's key; RSA because every peer reads it (Kwik takes only RSA keys).
     */
    public static Identity chain(int length, List<String> names, int padNames) {
        if (length < 1) {
            throw new IllegalArgumentException("a certificate chain has at least one certificate");
        }
        try {
            SecureRandom random = new SecureRandom();
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048, random);
            long now = System.currentTimeMillis();
            Date from = new Date(now - 3_600_000L);
            Date to = new Date(now + 10L * 86_400_000L);
            KeyPair issuerKey = g.generateKeyPair();
            X500Name issuer = new X500Name("O=pacelab interop root certificate authority");
            List<X509Certificate> chain = new ArrayList<>();
            KeyPair key = issuerKey;
            for (int i = 1; i <= length; i++) {
                boolean leaf = i == length;
                key = g.generateKeyPair();
                X500Name subject = new X500Name("O=pacelab interop " + (leaf ? "leaf" : "intermediate " + i));
                var b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now * 16 + i), from, to, subject, key.getPublic());
                if (leaf) {
                    List<GeneralName> sans = new ArrayList<>();
                    for (String n : names) {
                        sans.add(n.matches("[0-9.]+|.*:.*") ? new GeneralName(GeneralName.iPAddress, n) : new GeneralName(GeneralName.dNSName, n));
                    }
                    for (int k = 0; k < (length > 1 ? padNames : 0); k++) {
                        StringBuilder pad = new StringBuilder(250);
                        for (int c = 0; c < 250; c++) {
                            pad.append((char) ('a' + random.nextInt(26)));
                        }
                        sans.add(new GeneralName(GeneralName.dNSName, pad.toString()));
                    }
                    b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
                } else {
                    b.addExtension(Extension.basicConstraints, true, new org.bouncycastle.asn1.x509.BasicConstraints(100));
                    b.addExtension(Extension.keyUsage, true, new org.bouncycastle.asn1.x509.KeyUsage(
                            org.bouncycastle.asn1.x509.KeyUsage.keyCertSign));
                }
                var signer = new JcaContentSignerBuilder("SHA256withRSA").setSecureRandom(random).build(issuerKey.getPrivate());
                chain.addFirst(new JcaX509CertificateConverter().getCertificate(b.build(signer)));
                issuer = subject;
                issuerKey = key;
            }
            return new Identity(List.copyOf(chain), key.getPrivate());
        } catch (java.security.GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot generate a certificate chain: " + e.getMessage(), e);
        }
    }

    /** PEM text of a certificate, or of a private key as unencrypted PKCS#8 ("PRIVATE KEY"). */
    public static String toPem(Object certificateOrKey) {
        StringWriter sw = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(sw)) {
            if (certificateOrKey instanceof PrivateKey key) {
                w.writeObject(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null));
            } else {
                w.writeObject(certificateOrKey);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return sw.toString();
    }

    /** A trust manager accepting chains that end in one of the certificates in {@code caFile}. */
    public static X509TrustManager trustManager(Path caFile) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (X509Certificate c : readCertificates(caFile)) {
                ks.setCertificateEntry("ca" + i++, c);
            }
            if (i == 0) {
                throw new IOException(caFile + ": no PEM CERTIFICATE block found");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return (X509TrustManager) tmf.getTrustManagers()[0];
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException(caFile + ": cannot build a trust store: " + e.getMessage(), e);
        }
    }
}
