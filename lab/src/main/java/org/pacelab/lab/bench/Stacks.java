package org.pacelab.lab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.NginxPeer;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PicoquicPeer;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Protocol;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.peer.ServerSetup;
import org.pacelab.peers.build.PeerCache;

/** The stacks {@code pacelab bench loopback} knows, each with its default command lines. */
public final class Stacks {
    /** Peer names {@code --peers} accepts. */
    public static final List<String> PEERS = List.of("ngtcp2", "picoquic", "tcp");

    private Stacks() {}

    private static String url(int port, String file) {
        return "https://127.0.0.1:" + port + "/" + file;
    }

    /** A peer by its {@code --peers} name, or null; the peers pacelab builds (picoquic) are taken from {@code cache}. */
    public static BenchStack peer(String name, PeerCache cache) {
        return switch (name) {
            case "ngtcp2" -> new Ngtcp2();
            case "picoquic" -> new Picoquic(new PicoquicPeer(cache));
            case "tcp" -> new Tcp();
            default -> null;
        };
    }

    /**
     * pacelab server → pacelab client with their defaults, plus {@code options} on both command lines (empty for the
     * headline: default against default).
     */
    public record Pacelab(String name, PacelabLauncher launcher, List<String> options) implements BenchStack {
        public Pacelab {
            options = List.copyOf(options);
        }

        @Override
        public String description() {
            int cp = launcher.prefix().indexOf("-cp");
            String build = cp >= 0 && launcher.prefix().get(cp + 1).endsWith(".jar") ? " from " + launcher.prefix().get(cp + 1) : "";
            String cache = launcher.jvmOptionsFor().containsKey("server") || launcher.jvmOptionsFor().containsKey("client")
                    ? ", JVM AOT cache" : ", no JVM AOT cache";
            return "pacelab server -> pacelab client (HTTP/3)" + (options.isEmpty() ? ", defaults" : ", " + String.join(" ", options))
                    + cache + build;
        }

        @Override
        public String unavailable(Host host) {
            return launcher.has("server") && launcher.has("client") ? null : "this build has no 'pacelab server' and 'pacelab client'";
        }

        @Override
        public String version(Host host) {
            String v = Pacelab.class.getPackage().getImplementationVersion();
            return "pacelab " + (v == null ? "development build" : v);
        }

        @Override
        public Launch server(Path workDir, int port, Path root, Path certificate, Path privateKey) {
            List<String> args = new ArrayList<>(List.of("server", "--listen", "127.0.0.1:" + port, "--root", root.toString(),
                    "--cert", certificate.toString(), "--key", privateKey.toString()));
            args.addAll(options);
            return Launch.of(launcher.command(args), Map.of(), new Readiness.UdpBound(port));
        }

        @Override
        public List<String> client(int port, String file, Path downloads) {
            List<String> args = new ArrayList<>(List.of("client", "--insecure", "--output", downloads.toString()));
            args.addAll(options);
            args.add(url(port, file));
            return launcher.command(args);
        }
    }

    /** Debian's ngtcp2 examples: gtlsserver → gtlsclient (GnuTLS), HTTP/3. */
    record Ngtcp2() implements BenchStack {
        @Override
        public String name() { return "ngtcp2"; }

        @Override
        public String description() {
            return "ngtcp2 gtlsserver -> gtlsclient (HTTP/3, GnuTLS), defaults";
        }

        @Override
        public String unavailable(Host host) {
            return missing(host, "gtlsserver", "ngtcp2-server", "gtlsclient", "ngtcp2-client");
        }

        @Override
        public String version(Host host) {
            return "ngtcp2 " + orUnknown(host.packageVersion("ngtcp2-server"));
        }

        @Override
        public Launch server(Path workDir, int port, Path root, Path certificate, Path privateKey) {
            // -q: no per-packet debug output (the default prints it)
            return Launch.of(List.of("gtlsserver", "-q", "-d", root.toString(), "127.0.0.1", Integer.toString(port),
                    privateKey.toString(), certificate.toString()), Map.of(), new Readiness.UdpBound(port));
        }

        @Override
        public List<String> client(int port, String file, Path downloads) {
            // --exit-on-all-streams-close: exit after the download (the default keeps the connection open)
            return List.of("gtlsclient", "-q", "--exit-on-all-streams-close", "--download", downloads.toString(), "127.0.0.1",
                    Integer.toString(port), url(port, file));
        }
    }

    /**
     * picoquic, built by pacelab from pinned sources ({@code pacelab peers install picoquic}): picoquicdemo →
     * picoquicdemo with the command lines the runner and the interop matrix use ({@link PicoquicPeer}), nothing
     * added: its defaults (BBR, GSO, picotls with OpenSSL). The client proposes only h3 ({@code -a h3}), so it does
     * ngtcp2's client work: one HTTP/3 request, the body written to a file in the downloads directory.
     */
    record Picoquic(PicoquicPeer peer) implements BenchStack {
        @Override
        public String name() { return PicoquicPeer.NAME; }

        @Override
        public String description() {
            return "picoquic picoquicdemo -> picoquicdemo (HTTP/3, picotls), defaults";
        }

        @Override
        public String unavailable(Host host) {
            Availability a = peer.availability(Role.SERVER, host, null);
            return a.usable() ? null : a.reason();
        }

        @Override
        public String version(Host host) {
            return peer.version(Role.SERVER, host, null);
        }

        @Override
        public Launch server(Path workDir, int port, Path root, Path certificate, Path privateKey) throws IOException {
            return Launch.of(peer.serverCommand(port, certificate, privateKey, root), Map.of(), new Readiness.UdpBound(port));
        }

        @Override
        public List<String> client(int port, String file, Path downloads) throws IOException {
            List<String> cmd = peer.clientCommand(downloads, Protocol.H3.alpn());
            cmd.addAll(List.of("127.0.0.1", Integer.toString(port), PicoquicPeer.scenario(List.of("/" + file))));
            return cmd;
        }
    }

    /** The TCP/TLS baseline: nginx (HTTP/2 over TLS 1.3, as the lab's nginx peer runs it) → curl, HTTP/2. */
    record Tcp() implements BenchStack {
        @Override
        public String name() { return "tcp"; }

        @Override
        public String description() {
            return "TCP/TLS 1.3: nginx -> curl (HTTP/2), kernel defaults";
        }

        @Override
        public String unavailable(Host host) {
            return missing(host, "nginx", "nginx", "curl", "curl");
        }

        @Override
        public String version(Host host) {
            return "nginx " + orUnknown(host.packageVersion("nginx")) + ", curl " + orUnknown(host.packageVersion("curl"));
        }

        @Override
        public Launch server(Path workDir, int port, Path root, Path certificate, Path privateKey) throws IOException {
            return new NginxPeer().server(new ServerSetup(workDir, "127.0.0.1", port, root, certificate, privateKey, null, null,
                    Map.of(), Protocol.HTTP2_TLS), null);
        }

        @Override
        public List<String> client(int port, String file, Path downloads) {
            return List.of("curl", "--insecure", "--http2", "--silent", "--show-error", "--fail", "--output",
                    downloads.resolve(file).toString(), url(port, file));
        }
    }

    private static String missing(Host host, String server, String serverPackage, String client, String clientPackage) {
        if (host.which(server).isEmpty()) {
            return server + " is not installed (Debian package " + serverPackage + ")";
        }
        if (host.which(client).isEmpty()) {
            return client + " is not installed (Debian package " + clientPackage + ")";
        }
        return null;
    }

    private static String orUnknown(String v) {
        return v == null ? "(version unknown)" : v;
    }
}
