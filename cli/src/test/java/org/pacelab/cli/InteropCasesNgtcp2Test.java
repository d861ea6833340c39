package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The QUIC Interop Runner cases pacelab's endpoint gained for issue 16, each against ngtcp2 (Debian's gtlsserver and
 * gtlsclient 0.12.1) in both roles where ngtcp2 takes the case: one test per cell (case, server, client), each a
 * {@code pacelab interop} through the relay with the runner's impairments, checked from its tap as the runner checks
 * it, and required to succeed. A failed cell's directory (tap, key logs, qlogs, process logs) is kept and named.
 *
 * <p>amplificationlimit with pacelab as server needs a prompt first answer. The case drops gtlsclient's datagrams 2–7
 * and gtlsclient (ngtcp2 0.12.1) gives up at its 10 s handshake timeout, so its eighth datagram must leave within 10 s.
 * After the server's first flight (amplification-limited) it acknowledges in one or more datagrams, then sends only
 * PTO probes, doubling: with one acknowledgement datagram the eighth datagram is its sixth probe, 63 PTOs after that
 * flight; with two, its fifth, 31 PTOs after it. Its PTO during the handshake is three times its first RTT sample (srtt + 4 × rttvar with rttvar
 * half that sample and no max_ack_delay, RFC 9002 §5.3, §6.2.1), which is the path's 30 ms plus the time the relay
 * and the server take to answer the ClientHello, so that sample must stay below about 52 ms (106 ms). pacelab's endpoint warms its server up before it binds its port for that
 * ({@code EndpointCommand.warmUp}); a cold server answered after 0.3–2.2 s (docs/interop.md). And the server
 * acknowledges the ClientHello's Initial in a datagram of its own before its TLS step ({@code InitialAckFirst}, RFC 9000
 * §13.2.1), so the sample does not include the key exchange and the certificate's signature: 39–50 ms at load 9–11
 * under nice 19, against 77–239 ms without (docs/benchmarks.md).
 *
 * <p>Cells left out, and why:
 * <ul>
 *   <li>v2, both roles: Debian's ngtcp2 0.12.1 knows only the QUIC v2 draft version 0x709a50c4
 *       ({@code NGTCP2_PROTO_VER_V2_DRAFT}; gtlsserver's {@code --preferred-versions} takes "v1" and "v2draft"), not
 *       RFC 9369's 0x6b3343cf, which ngtcp2 gained in 0.13.0; the runner's check wants 0x6b3343cf.</li>
 *   <li>connectionmigration with ngtcp2 as server: gtlsserver binds the address it advertises as preferred
 *       ({@code examples/server.cc}, {@code add_endpoint} of {@code preferred_ipv4_addr}), which through the relay must
 *       be the relay's own; ngtcp2's own interop image answered connectionmigration with exit 127 until ngtcp2 1.11.0.
 *       pacelab → ngtcp2 is in: pacelab's server offers its preferred address (RFC 9000 §9.6) and gtlsclient moves to
 *       it unless told not to ({@code --no-preferred-addr}).</li>
 *   <li>rebind-port and rebind-addr with ngtcp2 as server: Debian's ngtcp2 0.12.1 server fails them with every
 *       client, its own included (docs/interop.md).</li>
 * </ul>
 */
@Tag("interop")
class InteropCasesNgtcp2Test {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @ParameterizedTest(name = "{0}: {1} serves {2}")
    @CsvSource(textBlock = """
            resumption,          pacelab, ngtcp2
            resumption,          ngtcp2,  pacelab
            zerortt,             pacelab, ngtcp2
            zerortt,             ngtcp2,  pacelab
            blackhole,           pacelab, ngtcp2
            blackhole,           ngtcp2,  pacelab
            ecn,                 pacelab, ngtcp2
            ecn,                 ngtcp2,  pacelab
            amplificationlimit,  pacelab, ngtcp2
            amplificationlimit,  ngtcp2,  pacelab
            handshakeloss,       pacelab, ngtcp2
            handshakeloss,       ngtcp2,  pacelab
            transfercorruption,  pacelab, ngtcp2
            transfercorruption,  ngtcp2,  pacelab
            handshakecorruption, pacelab, ngtcp2
            handshakecorruption, ngtcp2,  pacelab
            ipv6,                pacelab, ngtcp2
            ipv6,                ngtcp2,  pacelab
            rebind-port,         pacelab, ngtcp2
            rebind-addr,         pacelab, ngtcp2
            connectionmigration, pacelab, ngtcp2
            """)
    void cellSucceeds(String testCase, String server, String client) throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        CampaignPreconditions.requireProgram("tshark", "tshark");
        Path out = tmp.resolve("matrix");
        CliRun r = CliRun.of("interop", "--servers", server, "--clients", client, "--cases", testCase, "--out", out.toString());
        JsonNode results = new ObjectMapper().readTree(Files.readString(out.resolve("matrix.json"))).get("results");
        assertEquals(1, results.size(), results.toString());
        JsonNode cell = results.get(0);
        assertEquals("succeeded", cell.get("result").asText(), testCase + " " + server + " -> " + client + ": "
                + cell.get("reason").asText() + " (kept: " + out.resolve("runs").resolve(server + "_" + client).resolve(testCase) + ")");
        assertEquals(0, r.code(), r.out() + r.err());
    }
}
