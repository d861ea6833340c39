package org.pacelab.lab.peer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.pacelab.peers.build.Commands;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * Chromium (Debian {@code chromium}) as an HTTP/3 client: headless, forced onto QUIC for the server's origin, the
 * self-signed certificate pinned by its public key, a fresh profile per run. It loads a small page from the
 * server that downloads the paths with {@code fetch()} and writes the byte count into the page, which
 * {@code --dump-dom} prints.
 */
public final class ChromiumPeer implements Peer {
    public static final String NAME = "chromium";
    static final String PAGE = "pacelab-fetch.html";
    static final String PROFILE = "chromium-profile";
    private static final Pattern RESULT = Pattern.compile("<pre id=\"result\">(bytes=([0-9]+)|error=([^<]*))</pre>");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "Chromium as an HTTP/3 client (headless, QUIC forced, certificate pinned; fetch() of the paths)";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3);
    }

    @Override
    public Set<Role> roles() {
        return EnumSet.of(Role.CLIENT);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return List.of();
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return host.which("chromium").isPresent() ? Availability.USABLE
                : Availability.missing("chromium is not installed (Debian package chromium, about 300 MB)", List.of("chromium"));
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        String v = host.packageVersion("chromium");
        if (v != null) {
            return "chromium " + v;
        }
        Commands.Result r = Commands.run("chromium", "--version");
        return r.ok() ? r.output().strip() : "chromium (version unknown)";
    }

    @Override
    public void prepareDocumentRoot(Path root) throws IOException {
        String page = """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>pacelab download</title></head>
                <body><pre id="result">pending</pre>
                <script>
                const paths = new URLSearchParams(location.search).getAll('p');
                Promise.all(paths.map(p => fetch(p, {cache: 'no-store'}).then(r => {
                    if (!r.ok) throw new Error(p + ': HTTP ' + r.status);
                    return r.arrayBuffer();
                }).then(b => b.byteLength)))
                  .then(sizes => { document.getElementById('result').textContent = 'bytes=' + sizes.reduce((a, b) => a + b, 0); })
                  .catch(e => { document.getElementById('result').textContent = 'error=' + e.message; });
                </script></body></html>
                """;
        Files.writeString(root.resolve(PAGE), page, StandardCharsets.UTF_8);
    }

    @Override
    public Launch server(ServerSetup setup, PacelabLauncher pacelab) {
        throw new UnsupportedOperationException("chromium is a client only");
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        Path profile = c.workDir().resolve(PROFILE);
        Files.createDirectories(profile);
        String origin = (c.host().contains(":") ? "[" + c.host() + "]" : c.host()) + ":" + c.port();
        StringBuilder query = new StringBuilder();
        for (String p : c.paths()) {
            query.append(query.isEmpty() ? '?' : '&').append("p=").append(URLEncoder.encode(p, StandardCharsets.UTF_8));
        }
        List<String> cmd = new ArrayList<>(List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--origin-to-force-quic-on=" + origin,
                "--ignore-certificate-errors-spki-list=" + spkiHash(c.certificate()),
                "--virtual-time-budget=5000"));
        if (c.keyLog() != null) {
            cmd.add("--ssl-key-log-file=" + c.keyLog());
        }
        cmd.add("--dump-dom");
        cmd.add(c.url("/" + PAGE + query));
        return Launch.of(cmd, java.util.Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        deleteTree(c.workDir().resolve(PROFILE));
        String dom = Files.readString(stdout, StandardCharsets.UTF_8);
        Matcher m = RESULT.matcher(dom);
        if (!m.find()) {
            throw new IOException("chromium printed no download result (the page did not load or its script did not finish)");
        }
        if (m.group(3) != null) {
            throw new IOException("chromium's download failed: " + m.group(3));
        }
        return new ClientOutcome(Long.parseLong(m.group(2)), null);
    }

    /** base64(SHA-256(SubjectPublicKeyInfo)), the form --ignore-certificate-errors-spki-list takes. */
    static String spkiHash(Path certificatePem) throws IOException {
        try (InputStream in = Files.newInputStream(certificatePem)) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getPublicKey().getEncoded());
            return Base64.getEncoder().encodeToString(digest);
        } catch (CertificateException | NoSuchAlgorithmException e) {
            throw new IOException(certificatePem + ": not a readable certificate: " + e.getMessage(), e);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
