package org.pacelab.net.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.Preconditions;
import org.pacelab.net.Processes;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcPath;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.dc.DcTimeline;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.sys.Libc;

/**
 * Dual connectivity in namespace mode: an ngtcp2 download split over both paths and one kept on path b by its
 * server port cross the middlebox intact, the split one on both paths; nothing is left afterwards.
 */
@Tag("root")
@Tag("interop")
class DcNetnsRootTest {
    @Test
    void splitAndSinglePathDownloadsCrossTheMiddlebox(@TempDir Path dir) throws Exception {
        Preconditions.require(Libc.isRoot(), "namespace mode needs root");
        Preconditions.requireTool("ip", "iproute2");
        Path server = Preconditions.requireTool("gtlsserver", "ngtcp2-server");
        Path client = Preconditions.requireTool("gtlsclient", "ngtcp2-client");
        Path openssl = Preconditions.requireTool("openssl", "openssl");
        Preconditions.require(Files.exists(Path.of("/dev/net/tun")), "/dev/net/tun is missing (no TUN support)");
        Preconditions.require(NetnsLab.leftovers().isEmpty(), "a pacelab namespace lab is running (pacelab netns down --all)");

        Path www = Files.createDirectories(dir.resolve("www"));
        byte[] content = new byte[3 << 20];
        new Random(4).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path key = dir.resolve("key.pem"), cert = dir.resolve("cert.pem");
        assertEquals(0, Processes.run(60, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").exitCode());
        Path events = dir.resolve("events.bin");
        try (Processes procs = new Processes()) {
            NetnsLab.Tuns tuns = NetnsLab.up();
            TunMiddlebox box = null;
            Thread loop = null;
            try {
                box = new TunMiddlebox(tuns, null, DcSpecParser.parse("batch=50 ratio=1:1", "rate=30mbit", "rate=30mbit delay=15ms",
                        null), Map.of(4434, DcFlowMode.PATH_B), 1, null, 0, events, 150_000, 1_000_000);
                TunMiddlebox b = box;
                loop = Thread.ofPlatform().start(() -> { try { b.run(false); } catch (Exception e) { throw new RuntimeException(e); } });
                for (int port : new int[] {4433, 4434}) {
                    procs.start(dir.resolve("server" + port + ".log"), "ip", "netns", "exec", NetnsLab.SERVER_NS, server.toString(),
                            "-q", "-d", www.toString(), NetnsLab.SERVER_V4, String.valueOf(port), key.toString(), cert.toString());
                }
                Thread.sleep(500);
                for (int port : new int[] {4433, 4434}) {
                    Path dl = Files.createDirectories(dir.resolve("dl" + port));
                    Processes.Result h3 = Processes.run(120, "ip", "netns", "exec", NetnsLab.CLIENT_NS, client.toString(), "-q",
                            "--exit-on-all-streams-close", "--download", dl.toString(), "--max-data=1G",
                            "--max-stream-data-bidi-local=1G", NetnsLab.SERVER_V4, String.valueOf(port),
                            "https://" + NetnsLab.SERVER_V4 + ":" + port + "/file.bin");
                    assertEquals(0, h3.exitCode(), h3.output());
                    assertTrue(Arrays.equals(content, Files.readAllBytes(dl.resolve("file.bin"))), "download from " + port + " differs");
                }
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
        DcTimeline t = new DcTimeline(1_000_000_000L);
        EventLogReader.Result r = EventLogReader.read(events, t::add);
        int split = -1, onB = -1;
        for (var e : r.flows().entrySet()) {
            if (e.getValue().startsWith("udp " + NetnsLab.SERVER_V4 + ":4433")) split = e.getKey();
            if (e.getValue().startsWith("udp " + NetnsLab.SERVER_V4 + ":4434")) onB = e.getKey();
        }
        assertTrue(r.flows().get(split).endsWith(" path=dc"), r.flows().toString());
        assertTrue(r.flows().get(onB).endsWith(" path=b"), r.flows().toString());
        long splitA = Arrays.stream(t.pathBytes(DcPath.A, split)).sum(), splitB = Arrays.stream(t.pathBytes(DcPath.B, split)).sum();
        assertTrue(splitA > content.length / 3 && splitB > content.length / 3, "split flow: " + splitA + " on a, " + splitB + " on b");
        assertEquals(0, Arrays.stream(t.pathBytes(DcPath.A, onB)).sum());
        assertTrue(Arrays.stream(t.pathBytes(DcPath.B, onB)).sum() > content.length);
    }
}
