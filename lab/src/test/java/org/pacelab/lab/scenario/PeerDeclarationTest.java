package org.pacelab.lab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.peer.ClientSetup;
import org.pacelab.lab.peer.CommandLinePeer;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.peer.Protocol;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.peer.ServerSetup;
import org.pacelab.lab.testing.FakeHost;

/** Peers declared by command line: how they are read and checked, and the command lines they give a run. */
class PeerDeclarationTest {
    private static final PacelabLauncher PACELAB = new PacelabLauncher(List.of("pl"), java.util.Set.of());

    @TempDir
    Path tmp;

    private static final String DECLARED = """
            name: cl
            peers:
              my-stack:
                summary: a stack of my own
                protocols: [hq-interop, h3]
                cc: {cubic: cubic, newreno: reno}
                server:
                  command: [/opt/my/server, -d, "{docroot}", ["--cc={cc}"], [--qlog, "{qlogdir}"], "{address}", "{port}", "{key}", "{cert}"]
                  environment: {SSLKEYLOGFILE: "{keylog}", MODE: fast}
                client:
                  command: "my-client -q --out {outdir} -n {streams} '--label=two words' [--cc {cc}] {address} {port} {urls}"
                  environment: {SSLKEYLOGFILE: "{keylog}"}
            implementations:
              - {name: mine, server: my-stack, client: my-stack, options: {cc: newreno}}
            """;

    private Scenario read(String yaml) throws Exception {
        Path f = Files.writeString(tmp.resolve("s.yaml"), yaml);
        return ScenarioReader.read(f);
    }

    private String refusal(String yaml) {
        return assertThrows(ScenarioException.class, () -> read(yaml)).getMessage();
    }

    private ServerSetup server(Map<String, String> options, Path keyLog, Path qlog) {
        return new ServerSetup(tmp, "127.0.0.1", 4434, tmp.resolve("www"), tmp.resolve("cert.pem"), tmp.resolve("key.pem"), keyLog, qlog,
                options, Protocol.HQ_INTEROP);
    }

    @Test
    void aDeclaredPeerFillsItsCommandLinesIn() throws Exception {
        Scenario s = read(DECLARED);
        Peer p = PeerRegistry.forScenario(s).get("my-stack").orElseThrow();
        assertEquals(List.of(Protocol.HQ_INTEROP, Protocol.H3), p.protocols());
        assertEquals(java.util.EnumSet.allOf(Role.class), p.roles());
        assertTrue(p.writesKeyLog(Role.SERVER));
        assertEquals("cc: 'bbr' is not a congestion controller my-stack declares; valid values: cubic, newreno",
                p.options(Role.SERVER).getFirst().problem("bbr"));

        Launch full = p.server(server(Map.of("cc", "newreno"), tmp.resolve("keys.log"), tmp.resolve("qlog")), PACELAB);
        assertEquals(List.of("/opt/my/server", "-d", tmp.resolve("www").toString(), "--cc=reno", "--qlog", tmp.resolve("qlog").toString(),
                "127.0.0.1", "4434", tmp.resolve("key.pem").toString(), tmp.resolve("cert.pem").toString()), full.command());
        assertEquals(Map.of("SSLKEYLOGFILE", tmp.resolve("keys.log").toString(), "MODE", "fast"), full.environment());
        assertEquals(new Readiness.UdpBound(4434), full.readiness());

        // no cc, no key log, no qlog in this run: the optional groups and the variable are left out
        Launch bare = p.server(server(Map.of(), null, null), PACELAB);
        assertEquals(List.of("/opt/my/server", "-d", tmp.resolve("www").toString(), "127.0.0.1", "4434",
                tmp.resolve("key.pem").toString(), tmp.resolve("cert.pem").toString()), bare.command());
        assertEquals(Map.of("MODE", "fast"), bare.environment());

        ClientSetup c = new ClientSetup(tmp, "127.0.0.1", 5000, List.of("/a.bin", "/b.bin"), 3000, tmp.resolve("cert.pem"), null,
                60_000_000_000L, Map.of("cc", "cubic"), Protocol.HQ_INTEROP);
        Launch cl = p.client(c, PACELAB);
        assertEquals(List.of("my-client", "-q", "--out", tmp.resolve("downloads").toString(), "-n", "2", "--label=two words", "--cc",
                "cubic", "127.0.0.1", "5000", "https://127.0.0.1:5000/a.bin", "https://127.0.0.1:5000/b.bin"), cl.command());
        assertEquals(Map.of(), cl.environment());
        Files.write(tmp.resolve("downloads/a.bin"), new byte[1000]);
        Files.write(tmp.resolve("downloads/b.bin"), new byte[2000]);
        assertEquals(3000, p.clientOutcome(c, tmp.resolve("none")).bytes(), "success: files counts what it saved");
    }

    @Test
    void aDeclaredPeerIsUsableWhereItsProgramIsAndNamesTheDeclarationOtherwise() throws Exception {
        Peer p = PeerRegistry.forScenario(read(DECLARED)).get("my-stack").orElseThrow();
        assertTrue(p.availability(Role.CLIENT, new FakeHost().with("my-client"), PACELAB).usable());
        assertEquals("my-client is not installed here (the client command of my-stack, declared at " + tmp.resolve("s.yaml") + ":11:7)",
                p.availability(Role.CLIENT, new FakeHost(), PACELAB).reason());
        assertFalse(p.availability(Role.SERVER, new FakeHost(), PACELAB).usable(), "/opt/my/server does not exist");
    }

    @Test
    void peersFilesAreIncludedRelativeToTheScenario() throws Exception {
        Files.createDirectories(tmp.resolve("peers"));
        Files.writeString(tmp.resolve("peers/other.yaml"), """
                peers:
                  other:
                    client:
                      command: [other-client, "{url}"]
                """);
        Scenario s = read("include: [peers/other.yaml]\n" + DECLARED.substring(DECLARED.indexOf("peers:")));
        assertEquals(List.of("other", "my-stack"), s.peers().stream().map(d -> d.name().value()).toList());
        CommandLinePeer other = (CommandLinePeer) PeerRegistry.forScenario(s).get("other").orElseThrow();
        assertEquals(java.util.EnumSet.of(Role.CLIENT), other.roles());
        assertEquals(List.of(Protocol.H3), other.protocols());
        assertEquals("exit-code", other.declaration().client().success());
    }

    @Test
    void mistakesAreOneSentenceEachWithTheirPlace() {
        String f = tmp.resolve("s.yaml").toString();
        assertEquals(f + ":5:16: peers.x.server.command: unknown placeholder {docrot} (did you mean 'docroot'?); valid: {address}, "
                + "{port}, {docroot}, {cert}, {key}, {keylog}, {qlogdir}, {cc}, {alpn}",
                refusal("implementations: [pacelab]\npeers:\n  x:\n    server:\n      command: [srv, \"{docrot}\"]\n"));
        assertEquals(f + ":5:16: peers.x.client.command: {urls} stands for one argument per download, so it must be a whole argument "
                + "outside optional groups", refusal("implementations: [pacelab]\npeers:\n  x:\n    client:\n      command: \"cl [{urls}]\"\n"));
        assertEquals(f + ":4:5: peers.x: a command uses {cc} but the peer declares no cc values; add e.g. cc: [cubic, reno]",
                refusal("implementations: [pacelab]\npeers:\n  x:\n    client:\n      command: \"cl --cc={cc} {url}\"\n"));
        assertEquals(f + ":5:7: peers.x.client: success: files counts what the client saved into {outdir}, but its command does not "
                + "use {outdir}", refusal("implementations: [pacelab]\npeers:\n  x:\n    client:\n      command: \"cl {url}\"\n"
                        + "      success: files\n"));
        assertEquals(f + ":1:11: include: cannot read the peers file " + tmp.resolve("nope.yaml") + " (NoSuchFileException: "
                + tmp.resolve("nope.yaml") + ")", refusal("include: [nope.yaml]\nimplementations: [pacelab]\n"));
        String typo = refusal("implementations: [pacelab]\npeers:\n  x:\n    client:\n      comand: \"cl {url}\"\n");
        assertEquals(List.of(f + ":5:7: unknown key 'comand' in peers.x.client (did you mean 'command'?); valid keys: command, "
                + "environment, ready, success", f + ":5:7: peers.x.client has no command"), List.of(typo.split("\n")));
    }

    /**
     * An include that is no path, no regular file or larger than 1 MiB is one located problem, not an
     * InvalidPathException or an endless read of /dev/zero (fuzz audit; ScenarioFuzzTestInputs/scenario/include-*).
     */
    @Test
    void includeReadsOnlyRegularFilesOfBoundedSize() throws Exception {
        String f = tmp.resolve("s.yaml").toString();
        assertEquals(f + ":1:10: include: '\0' is not a valid path (Nul character not allowed); give the path of a peers file "
                + "relative to the scenario's directory", refusal("include: \"\\0\"\nimplementations: [pacelab]\n"));
        Files.createDirectories(tmp.resolve("peers"));
        assertEquals(f + ":1:11: include: the peers file " + tmp.resolve("peers") + " is not a regular file; give the path of a "
                + "peers file relative to the scenario's directory", refusal("include: [peers]\nimplementations: [pacelab]\n"));
        Files.write(tmp.resolve("big.yaml"), new byte[(1 << 20) + 1]);
        assertEquals(f + ":1:11: include: the peers file " + tmp.resolve("big.yaml") + " has 1048577 bytes, more than the 1048576 "
                + "(1 MiB) a peers file may hold; split its peers over several files",
                refusal("include: [big.yaml]\nimplementations: [pacelab]\n"));
    }

    @Test
    void aDeclaredPeerCannotTakeABuiltInName() throws Exception {
        Scenario s = read("implementations: [pacelab]\npeers:\n  ngtcp2:\n    client:\n      command: \"cl {url}\"\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> PeerRegistry.forScenario(s));
        assertEquals(tmp.resolve("s.yaml") + ":3:3: peers: 'ngtcp2' is already a peer of pacelab; give the declared peer another name",
                e.getMessage());
    }
}
