package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark's JSON (with --no-duplicate-keys) into packets: coalesced ones, nested fields, direction, ECN; the bound on
 * the packets kept, and tshark's failures as one sentence naming the capture.
 */
class TraceReaderTest {
    private static final String JSON = """
            [
              {"_source": {"layers": {
                "frame": {"frame.number": "1", "frame.time_epoch": "1700000000.000000123"},
                "ip": {"ip.dsfield_tree": {"ip.dsfield.ecn": "2"}, "ip.src": "127.0.0.1", "ip.dst": "127.0.0.1"},
                "udp": {"udp.srcport": "4433", "udp.dstport": "50000", "udp.length": "1208"},
                "quic": [
                  {"quic.header_form": "1", "quic.long.packet_type": "0", "quic.version": "0x00000001", "quic.scid": "aa:bb",
                   "quic.frame": [{"quic.frame_type": "2", "quic.ack.ect0_count": "1"},
                                  {"quic.frame_type": "6", "tls": {"tls.handshake": {"tls.handshake.type": "2"}}}]},
                  {"quic.header_form": "1", "quic.long.packet_type_v2": "3", "quic.version": "0x6b3343cf",
                   "quic.frame": {"quic.crypto.offset": "0", "quic.crypto.length": "5"}}
                ]}}},
              {"_source": {"layers": {
                "frame": {"frame.number": "2", "frame.time_epoch": "1700000000.5"},
                "ipv6": {"ipv6.tclass_tree": {"ipv6.tclass.ecn": "0"}, "ipv6.src": "::1", "ipv6.dst": "::1"},
                "udp": {"udp.srcport": "50000", "udp.dstport": "4433", "udp.length": "40"},
                "quic": {"quic.short": {"quic.header_form": "0", "quic.key_phase": "1", "quic.dcid": "aa:bb"},
                         "quic.protected_payload": "01:02:03"}}}},
              {"_source": {"layers": {"frame": {"frame.number": "3"}, "udp": {"udp.srcport": "53", "udp.dstport": "53"}}}}
            ]
            """;

    @Test
    void framesBecomePacketsWithEveryFieldKept() throws Exception {
        List<QuicPacket> out = new ArrayList<>();
        boolean[] failed = {false};
        assertTrue(TraceReader.parse(new ByteArrayInputStream(JSON.getBytes(StandardCharsets.UTF_8)), Set.of(4433),
                TraceReader.MAX_PACKETS, out, failed));
        assertEquals(3, out.size());
        QuicPacket initial = out.get(0);
        assertEquals(QuicPacket.Type.INITIAL, initial.type());
        assertTrue(initial.fromServer());
        assertEquals(2, initial.datagram().ecn());
        assertEquals(1_700_000_000_000_000_123L, initial.datagram().timeNs());
        assertEquals("aa:bb", initial.first("quic.scid"));
        assertEquals(List.of("2", "6"), initial.all("quic.frame_type"));
        assertTrue(initial.has("quic.ack.ect0_count"));
        assertEquals("2", initial.first("tls.handshake.type"));
        QuicPacket handshake = out.get(1);
        assertEquals(QuicPacket.Type.HANDSHAKE, handshake.type());
        assertEquals(QuicPacket.V2, handshake.version());
        assertEquals(1, handshake.datagram().frame());
        QuicPacket short1 = out.get(2);
        assertEquals(QuicPacket.Type.ONE_RTT, short1.type());
        assertFalse(short1.fromServer());
        assertTrue(short1.datagram().ipv6());
        assertEquals("1", short1.first("quic.key_phase"));
        assertEquals(3, short1.payloadBytes());
        assertFalse(failed[0]);
        assertEquals(2, new Trace(out, false).datagrams(Trace.Direction.ALL).size());
    }

    /** One frame of a Handshake flood: one QUIC packet per datagram, 1 ms apart. */
    private static String floodFrame(int n) {
        return "{\"_source\": {\"layers\": {\"frame\": {\"frame.number\": \"" + n + "\", \"frame.time_epoch\": \"1700000000."
                + String.format("%03d", n % 1000) + "\"}, \"ip\": {\"ip.src\": \"127.0.0.1\", \"ip.dst\": \"127.0.0.1\"}, "
                + "\"udp\": {\"udp.srcport\": \"50000\", \"udp.dstport\": \"4433\", \"udp.length\": \"1208\"}, "
                + "\"quic\": {\"quic.header_form\": \"1\", \"quic.long.packet_type\": \"2\", \"quic.version\": \"0x00000001\"}}}}";
    }

    @Test
    void aStreamBeyondTheBoundIsReadOnlyUpToIt() throws Exception {
        int bound = 1_000;
        int frames = 20 * bound;
        StringBuilder json = new StringBuilder("[");
        for (int i = 1; i <= frames; i++) {
            json.append(i > 1 ? ",\n" : "").append(floodFrame(i));
        }
        byte[] bytes = json.append("]").toString().getBytes(StandardCharsets.UTF_8);
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        List<QuicPacket> out = new ArrayList<>();
        boolean[] failed = {false};
        assertFalse(TraceReader.parse(in, Set.of(4433), bound, out, failed));
        assertEquals(bound, out.size());
        assertEquals(QuicPacket.Type.HANDSHAKE, out.getLast().type());
        assertEquals(bound, out.getLast().datagram().frame());
        // the rest of the stream was left unread (the parser reads ahead by at most its buffer)
        assertTrue(in.available() > bytes.length / 2, in.available() + " of " + bytes.length + " bytes left");
        List<QuicPacket> all = new ArrayList<>();
        assertTrue(TraceReader.parse(new ByteArrayInputStream(bytes), Set.of(4433), frames, all, failed));
        assertEquals(frames, all.size());
    }

    /** A stand-in for tshark: a shell script printing {@code body}'s output on stdout. */
    private static Path fakeTshark(Path dir, String body) throws Exception {
        Path script = dir.resolve("tshark");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void aTsharkPrintingWithoutEndIsStoppedAtTheBoundWithOneSentence(@TempDir Path dir) throws Exception {
        // prints Handshake frames for ever, as tshark would for a flood far beyond the bound
        Path tshark = fakeTshark(dir, "printf '['; while :; do printf '%s,' '" + floodFrame(1) + "'; done");
        Path tap = dir.resolve("tap.pcapng");
        TraceException e = assertThrows(TraceException.class,
                () -> new TraceReader(tshark.toString(), 50).read(tap, null, Set.of(4433), dir));
        assertEquals("the tap " + tap + " has more than 50 QUIC packets (the first 50 span 0.0 s); the check reads at most 50",
                e.getMessage());
    }

    @Test
    void tsharkFailingIsOneSentenceNamingTheCapture(@TempDir Path dir) throws Exception {
        Path tshark = fakeTshark(dir, "echo 'tshark: The file \"x\" appears to have been cut short' >&2; exit 2");
        Path tap = dir.resolve("tap.pcapng");
        TraceException e = assertThrows(TraceException.class,
                () -> new TraceReader(tshark.toString()).read(tap, null, Set.of(4433), dir));
        assertEquals("tshark could not read " + tap + " (exit status 2): tshark: The file \"x\" appears to have been cut short",
                e.getMessage());
    }

    @Test
    void outputThatBreaksOffIsOneSentenceNamingTheCapture(@TempDir Path dir) throws Exception {
        Path tshark = fakeTshark(dir, "printf '[%s,{\"_source\": {' '" + floodFrame(1) + "'");
        Path tap = dir.resolve("tap.pcapng");
        TraceException e = assertThrows(TraceException.class,
                () -> new TraceReader(tshark.toString()).read(tap, null, Set.of(4433), dir));
        assertTrue(e.getMessage().startsWith("tshark's JSON for " + tap + " is not a JSON array of frames ("), e.getMessage());
        assertTrue(e.getMessage().endsWith(" after 1 QUIC packets)"), e.getMessage());
    }

    @Test
    void aCellWhoseTapCannotBeReadFailsWithTheReadersSentence(@TempDir Path dir) throws Exception {
        Path tshark = fakeTshark(dir, "printf '['; while :; do printf '%s,' '" + floodFrame(1) + "'; done");
        Path www = Files.createDirectories(dir.resolve("www"));
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        Files.write(www.resolve("a"), new byte[] {1, 2, 3});
        Files.write(downloads.resolve("a"), new byte[] {1, 2, 3});
        Path tap = dir.resolve("tap.pcapng");
        InteropCase handshake = InteropCases.get("handshake").orElseThrow();
        CaseRun run = CaseRun.ofTap(handshake, www, downloads, List.of("a"), dir.resolve("keys.log"), tap, Set.of(4433),
                new TraceReader(tshark.toString(), 20), dir);
        CheckResult r = InteropRun.check(handshake, run);
        assertEquals(CheckResult.Outcome.FAILED, r.outcome());
        assertEquals("the tap " + tap + " has more than 20 QUIC packets (the first 20 span 0.0 s); the check reads at most 20",
                r.reason());
    }
}
