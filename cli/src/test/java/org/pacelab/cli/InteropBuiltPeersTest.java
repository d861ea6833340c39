package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * picoquic, aioquic and quic-go as interop endpoints: the runner's handshake and transfer cases between pacelab and
 * each of them in both roles, and the further cases aioquic and quic-go take (retry, resumption, zerortt, chacha20,
 * keyupdate, v2), through the relay with its tap, checked as the runner checks them. With {@code CI=true} a peer that
 * is not built fails the test.
 */
@Tag("interop")
class InteropBuiltPeersTest {
    private static final String CASES = "handshake,transfer";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"picoquic", "aioquic", "quic-go"})
    void bothRolesWithPacelab(String peer) throws Exception {
        CampaignPreconditions.requireBuilt(peer);
        CampaignPreconditions.requireProgram("tshark", "tshark");
        run("pacelab", peer, "server", CASES);
        run(peer, "pacelab", "client", CASES);
    }

    /**
     * The runner's cases pacelab's aioquic programs take beyond handshake and transfer, as aioquic's own examples do them,
     * between pacelab and aioquic in both roles: a Retry, resumption and 0-RTT across two client processes (the
     * session ticket kept in the cell's directory), only ChaCha20 offered, a key update the client starts (aioquic's
     * client; as server, pacelab's client starts it and aioquic answers), and QUIC v2 (RFC 9369) by compatible version
     * negotiation from v1 — v2 against a peer that is not pacelab, which ngtcp2 0.12.1 (the draft's v2 only) cannot be.
     * aioquic's server takes the client's first compatible version: with pacelab's client it moves to v2 because that
     * client, told v2, starts in v1 and lists v2 first (it listed v1 first until 6ce8e68, and the pair stayed in v1).
     */
    @ParameterizedTest
    @ValueSource(strings = {"retry", "resumption", "zerortt", "chacha20", "keyupdate", "v2"})
    void aioquicCaseBothRolesWithPacelab(String testCase) throws Exception {
        CampaignPreconditions.requireBuilt("aioquic");
        CampaignPreconditions.requireProgram("tshark", "tshark");
        run("pacelab", "aioquic", "as-client", testCase);
        run("aioquic", "pacelab", "as-server", testCase);
    }

    /**
     * The runner's cases pacelab's Kwik and quiche peer programs take beyond handshake and transfer, on the libraries'
     * own API, between pacelab and each in both roles: Kwik a Retry, resumption and 0-RTT across two client processes
     * (the ticket file in the cell's directory), ChaCha20 alone, a key update its client starts, QUIC v2 by compatible
     * version negotiation; quiche a Retry, resumption and 0-RTT in one client process, and ChaCha20 as server (its
     * client cannot offer ChaCha20 alone, BoringSSL). Built into pacelab, so nothing to install.
     */
    @Test
    void kwikAndQuicheCasesBothRolesWithPacelab() throws Exception {
        CampaignPreconditions.requireProgram("tshark", "tshark");
        String kwik = "retry,resumption,zerortt,chacha20,keyupdate,v2";
        run("pacelab", "kwik", "kwik-as-client", kwik);
        run("kwik", "pacelab", "kwik-as-server", kwik);
        run("pacelab", "quiche", "quiche-as-client", "retry,resumption,zerortt");
        run("quiche", "pacelab", "quiche-as-server", "retry,resumption,zerortt,chacha20");
    }

    /**
     * quic-go's client makes both connections of resumption and 0-RTT in one process (Go's session state cannot be
     * written to a file), its server issues tickets and accepts 0-RTT as it is: both roles with pacelab.
     */
    @Test
    void quicGoResumptionAndZeroRttBothRolesWithPacelab() throws Exception {
        CampaignPreconditions.requireBuilt("quic-go");
        CampaignPreconditions.requireProgram("tshark", "tshark");
        run("pacelab", "quic-go", "as-client", "resumption,zerortt");
        run("quic-go", "pacelab", "as-server", "resumption,zerortt");
    }

    /**
     * The check of the rebinding cases decrypts the server's first packet on the client's new path with tshark, which
     * finds the connection by the packet's connection ID: quic-go's client must have one (0.29 dials with none unless
     * told; with none this cell failed, "did not contain a PATH_CHALLENGE frame", though the server had sent one).
     */
    @Test
    void quicGoClientThroughARebinding() throws Exception {
        CampaignPreconditions.requireBuilt("quic-go");
        CampaignPreconditions.requireProgram("tshark", "tshark");
        run("pacelab", "quic-go", "rebind", "rebind-port");
    }

    /**
     * The clients whose failures were diagnosed from the tap alone (issue 16) keep their own diagnostics in the cell's
     * directory, where the other peers' qlogs are: aioquic's, quic-go's, picoquic's and quiche's clients a qlog per
     * connection in {@code qlog-client/}, Kwik's client (no qlog) Kwik's own log, {@code kwik-client.log}, with the
     * packets it sent.
     */
    @ParameterizedTest
    @ValueSource(strings = {"aioquic", "quic-go", "picoquic", "quiche", "kwik"})
    void clientKeepsItsQlogOrLogInTheCellDirectory(String client) throws Exception {
        if (!client.equals("kwik") && !client.equals("quiche")) { // those two are pacelab's own peer programs
            CampaignPreconditions.requireBuilt(client);
        }
        CampaignPreconditions.requireProgram("tshark", "tshark");
        run("pacelab", client, "diagnostics", "handshake");
        Path cell = tmp.resolve("diagnostics").resolve("runs").resolve("pacelab_" + client).resolve("handshake");
        if (client.equals("kwik")) {
            String log = Files.readString(cell.resolve("kwik-client.log"));
            assertTrue(log.startsWith("pacelab kwik-client: connection to 127.0.0.1:"), log);
            assertTrue(log.contains(" -> Packet I|0|"), log);
        } else {
            List<Path> qlogs;
            try (var s = Files.list(cell.resolve("qlog-client"))) {
                qlogs = s.toList();
            }
            assertEquals(1, qlogs.size(), "one connection, one client qlog: " + qlogs);
            String qlog = Files.readString(qlogs.getFirst());
            assertTrue(qlog.contains("packet_sent") && qlog.contains("\"initial\""), qlog);
        }
    }

    private void run(String server, String client, String name, String cases) throws Exception {
        Path out = tmp.resolve(name);
        CliRun r = CliRun.of("interop", "--servers", server, "--clients", client, "--cases", cases, "--out", out.toString());
        JsonNode m = new ObjectMapper().readTree(Files.readString(out.resolve("matrix.json")));
        List<String> cells = new ArrayList<>();
        for (JsonNode c : m.get("results")) {
            cells.add(c.get("case").asText() + ": " + c.get("result").asText() + " (" + c.get("reason").asText() + ")");
        }
        assertEquals(cases.split(",").length, cells.size(), cells.toString());
        for (String c : cells) {
            assertTrue(c.contains(": succeeded ("), server + " -> " + client + ": " + String.join("; ", cells));
        }
        assertEquals(0, r.code(), r.out() + r.err());
    }
}
