package org.pacelab.net.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.Preconditions;
import org.pacelab.net.Processes;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.EventLogSummary;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.sys.Libc;

/**
 * Acceptance 3: in namespace mode an ngtcp2 HTTP/3 download and an nginx-to-curl HTTPS download (TCP/TLS) both
 * cross the emulator with quic-steps; afterwards no namespace, link or process of the run is left.
 */
@Tag("root")
@Tag("interop")
class NetnsLabRootTest {
    @Test
    void quicAndTcpCrossTheMiddleboxAndNothingIsLeft(@TempDir Path dir) throws Exception {
        Preconditions.require(Libc.isRoot(), "namespace mode needs root");
        Preconditions.requireTool("ip", "iproute2");
        Path server = Preconditions.requireTool("gtlsserver", "ngtcp2-server");
        Path client = Preconditions.requireTool("gtlsclient", "ngtcp2-client");
        Path nginx = Preconditions.requireTool("nginx", "nginx");
        Path curl = Preconditions.requireTool("curl", "curl");
        Path openssl = Preconditions.requireTool("openssl", "openssl");
        Preconditions.require(Files.exists(Path.of("/dev/net/tun")), "/dev/net/tun is missing (no TUN support)");
        Preconditions.require(NetnsLab.leftovers().isEmpty(), "a pacelab namespace lab is running (pacelab netns down --all)");

        Path www = Files.createDirectories(dir.resolve("www"));
        byte[] content = new byte[3 << 20];
        new Random(3).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path key = dir.resolve("key.pem"), cert = dir.resolve("cert.pem");
        assertEquals(0, Processes.run(60, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").exitCode());
        Files.createDirectories(dir.resolve("nginx/tmp"));
        Files.writeString(dir.resolve("nginx/nginx.conf"), """
                user root;
                worker_processes 1;
                pid %1$s/nginx/nginx.pid;
                events { worker_connections 64; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/nginx/tmp; proxy_temp_path %1$s/nginx/tmp; fastcgi_temp_path %1$s/nginx/tmp;
                  uwsgi_temp_path %1$s/nginx/tmp; scgi_temp_path %1$s/nginx/tmp;
                  server {
                    listen %2$s:8443 ssl http2;
                    ssl_certificate %3$s; ssl_certificate_key %4$s;
                    root %5$s;
                  }
                }
                """.formatted(dir, NetnsLab.SERVER_V4, cert, key, www));

        Path events = dir.resolve("events.bin"), tap = dir.resolve("tap.pcapng");
        try (Processes procs = new Processes()) {
            NetnsLab.Tuns tuns = NetnsLab.up();
            TunMiddlebox box = null;
            Thread loop = null;
            try {
                box = new TunMiddlebox(tuns, LinkSpecParser.parse("quic-steps", null, null), 1, tap, 0, events, 150_000, 1_000_000);
                TunMiddlebox b = box;
                loop = Thread.ofPlatform().start(() -> { try { b.run(false); } catch (Exception e) { throw new RuntimeException(e); } });
                procs.start(dir.resolve("h3server.log"), "ip", "netns", "exec", NetnsLab.SERVER_NS, server.toString(), "-q", "-d",
                        www.toString(), NetnsLab.SERVER_V4, "4433", key.toString(), cert.toString());
                procs.start(dir.resolve("nginx.log"), "ip", "netns", "exec", NetnsLab.SERVER_NS, nginx.toString(), "-p",
                        dir.resolve("nginx").toString(), "-c", dir.resolve("nginx/nginx.conf").toString(), "-e",
                        dir.resolve("nginx/error.log").toString(), "-g", "daemon off;");
                Thread.sleep(500);
                Path dl = Files.createDirectories(dir.resolve("dl"));
                Processes.Result h3 = Processes.run(120, "ip", "netns", "exec", NetnsLab.CLIENT_NS, client.toString(), "-q",
                        "--exit-on-all-streams-close", "--download", dl.toString(), "--max-data=1G", "--max-stream-data-bidi-local=1G",
                        NetnsLab.SERVER_V4, "4433", "https://" + NetnsLab.SERVER_V4 + ":4433/file.bin");
                assertEquals(0, h3.exitCode(), h3.output());
                assertTrue(Arrays.equals(content, Files.readAllBytes(dl.resolve("file.bin"))), "HTTP/3 download differs");
                Path tcpOut = dir.resolve("curl.bin");
                Processes.Result tcp = Processes.run(120, "ip", "netns", "exec", NetnsLab.CLIENT_NS, curl.toString(), "-fsS", "-k",
                        "--http2", "-o", tcpOut.toString(), "https://" + NetnsLab.SERVER_V4 + ":8443/file.bin");
                assertEquals(0, tcp.exitCode(), tcp.output());
                assertTrue(Arrays.equals(content, Files.readAllBytes(tcpOut)), "HTTPS download differs");
            } finally {
                if (box != null) box.stop();
                if (loop != null) loop.join(10_000);
                if (box != null) box.close();
                procs.close();
                tuns.close();
                NetnsLab.down(false);
            }
        }
        assertEquals(List.of(), NetnsLab.leftovers());
        EventLogSummary s = EventLogReader.summarize(events);
        assertTrue(s.flows().values().stream().anyMatch(f -> f.startsWith("udp " + NetnsLab.SERVER_V4 + ":4433")), s.flows().toString());
        assertTrue(s.flows().values().stream().anyMatch(f -> f.startsWith("tcp " + NetnsLab.SERVER_V4 + ":8443")), s.flows().toString());
        assertTrue(s.count(Direction.DOWN, EventType.DELIVER) > 2 * (3 << 20) / 1500);
        assertTrue(Files.size(tap) > 2L * content.length);
    }
}
