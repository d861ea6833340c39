package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.netns.NetnsLab;

/**
 * The servers' self-signed RSA certificate and PKCS#8 key (PEM), made once per campaign for every address a server
 * uses; RSA because every peer reads it (Kwik takes only RSA keys).
 */
public record Pki(Path certificate, Path privateKey) {
    public static Pki prepare(Path dir) throws IOException {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        if (!Files.isRegularFile(cert) || !Files.isRegularFile(key)) {
            Certificates.Identity id = Certificates.selfSignedRsa(List.of("localhost", "127.0.0.1", "::1", NetnsLab.SERVER_V4,
                    NetnsLab.SERVER_V6));
            AtomicFiles.writeString(key, pkcs8Pem(id.key().getEncoded()));
            AtomicFiles.writeString(cert, Certificates.toPem(id.leaf()));
        }
        return new Pki(cert, key);
    }

    /** A private key as PKCS#8 PEM ("PRIVATE KEY"), which GnuTLS, OpenSSL (nginx) and pacelab all read. */
    static String pkcs8Pem(byte[] pkcs8) {
        String b64 = java.util.Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).encodeToString(pkcs8);
        return "-----BEGIN PRIVATE KEY-----\n" + b64 + "\n-----END PRIVATE KEY-----\n";
    }
}
