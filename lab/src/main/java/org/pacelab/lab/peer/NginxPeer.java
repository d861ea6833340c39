package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * The TCP/TLS baseline's server: nginx serving HTTP/2 over TLS 1.3, in the foreground with a private prefix in the
 * run's directory. Its congestion controller is the server namespace's {@code net.ipv4.tcp_congestion_control}
 * (set per run), so it runs only in netns mode. Its worker runs as root (netns mode is root anyway) so that it can
 * read the campaign's files wherever they are.
 */
public final class NginxPeer implements Peer {
    public static final String NAME = "nginx";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "nginx, HTTP/2 over TLS 1.3 (the TCP/TLS baseline's server; netns mode; cc = the kernel's TCP controller)";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.HTTP2_TLS);
    }

    @Override
    public Set<Role> roles() {
        return EnumSet.of(Role.SERVER);
    }

    @Override
    public Set<Mode> modes() {
        return EnumSet.of(Mode.NETNS);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return List.of(TcpCongestion.OPTION);
    }

    /** In direct mode nginx runs in the host's namespace, whose default TCP controller the runner must not change. */
    @Override
    public String modeProblem(Role role, Map<String, String> options, Mode mode, String qdisc) {
        if (mode == Mode.DIRECT && options.containsKey("cc")) {
            return "cc sets the network namespace's default TCP controller, which needs mode: netns; in direct mode nginx "
                    + "uses the host's default (net.ipv4.tcp_congestion_control)";
        }
        return null;
    }

    /** nginx writes no key log; curl does (SSLKEYLOGFILE), so the TCP/TLS capture can be decrypted too. */
    @Override
    public boolean writesKeyLog(Role role) {
        return false;
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return host.which("nginx").isPresent() ? Availability.USABLE
                : Availability.missing("nginx is not installed (Debian package nginx)", List.of("nginx"));
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        String v = host.packageVersion("nginx");
        return "nginx " + (v == null ? "(version unknown)" : v);
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) throws IOException {
        Path prefix = s.workDir().resolve("nginx");
        Files.createDirectories(prefix.resolve("tmp"));
        String listen = s.address().contains(":") ? "[" + s.address() + "]:" + s.port() : s.address() + ":" + s.port();
        String conf = """
                user root;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                    sendfile on;
                    tcp_nopush on;
                    default_type application/octet-stream;
                    client_body_temp_path %1$s/tmp/body;
                    proxy_temp_path %1$s/tmp/proxy;
                    fastcgi_temp_path %1$s/tmp/fastcgi;
                    uwsgi_temp_path %1$s/tmp/uwsgi;
                    scgi_temp_path %1$s/tmp/scgi;
                    server {
                        listen %2$s ssl http2;
                        ssl_protocols TLSv1.3;
                        ssl_certificate %3$s;
                        ssl_certificate_key %4$s;
                        root %5$s;
                    }
                }
                """.formatted(prefix, listen, s.certificate(), s.privateKey(), s.documentRoot());
        Files.writeString(prefix.resolve("nginx.conf"), conf, StandardCharsets.UTF_8);
        List<List<String>> before = new ArrayList<>();
        List<List<String>> hostBefore = new ArrayList<>();
        String cc = s.options().get("cc");
        if (cc != null) {
            String name = TcpCongestion.kernelName(cc);
            List<String> allowed = TcpCongestion.list(TcpCongestion.ALLOWED);
            if (!allowed.isEmpty() && !allowed.contains(name)) {
                // a namespace may only pick a controller the host allows (net/ipv4/tcp_cong.c)
                hostBefore.add(List.of("sysctl", "-q", "-w", "net.ipv4.tcp_allowed_congestion_control="
                        + String.join(" ", allowed) + " " + name));
            }
            before.add(List.of("sysctl", "-q", "-w", "net.ipv4.tcp_congestion_control=" + name));
        }
        List<String> cmd = List.of("nginx", "-p", prefix.toString(), "-c", prefix.resolve("nginx.conf").toString(),
                "-e", prefix.resolve("error.log").toString(), "-g", "daemon off;");
        return new Launch(cmd, Map.of(), new Readiness.TcpListening(s.port()), before, hostBefore);
    }

    @Override
    public Launch client(ClientSetup setup, PacelabLauncher pacelab) {
        throw new UnsupportedOperationException("nginx is a server only");
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup setup, Path stdout) {
        throw new UnsupportedOperationException("nginx is a server only");
    }

    /** The kernel's TCP congestion controllers under the names scenarios use. */
    static final class TcpCongestion {
        static final Path AVAILABLE = Path.of("/proc/sys/net/ipv4/tcp_available_congestion_control");
        static final Path ALLOWED = Path.of("/proc/sys/net/ipv4/tcp_allowed_congestion_control");
        static final PeerOption OPTION = new PeerOption("cc", "cubic, newreno (= reno), bbr: the kernel's TCP controllers", v -> {
            String k = kernelName(v);
            if (k == null) {
                return "'" + v + "' is not a TCP congestion controller; valid values: cubic, newreno, reno, bbr";
            }
            List<String> available = list(AVAILABLE);
            return available.isEmpty() || available.contains(k) ? null
                    : "this kernel has no TCP " + k + " (net.ipv4.tcp_available_congestion_control: " + String.join(" ", available) + ")";
        });

        private TcpCongestion() {}

        /** The controllers a /proc list names, or none when it cannot be read (not Linux). */
        static List<String> list(Path file) {
            try {
                return java.util.Arrays.stream(Files.readString(file).strip().split("\\s+")).filter(x -> !x.isEmpty()).toList();
            } catch (IOException e) {
                return List.of();
            }
        }

        static String kernelName(String v) {
            return switch (v.strip().toLowerCase(Locale.ROOT)) {
                case "cubic" -> "cubic";
                case "newreno", "reno" -> "reno";
                case "bbr" -> "bbr";
                default -> null;
            };
        }
    }
}
