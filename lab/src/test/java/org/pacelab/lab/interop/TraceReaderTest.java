package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** tshark's JSON (with --no-duplicate-keys) into packets: coalesced ones, nested fields, direction, ECN. */
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
        TraceReader.parse(new ByteArrayInputStream(JSON.getBytes(StandardCharsets.UTF_8)), Set.of(4433), out, failed);
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
}
