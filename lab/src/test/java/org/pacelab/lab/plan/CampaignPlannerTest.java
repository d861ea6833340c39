package org.pacelab.lab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;

class CampaignPlannerTest {
    private static final FakeHost ALL = FakeHost.everything();

    @Test
    void expandsImplementationsTimesSweepPointsTimesRepetitions() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                link: {preset: quic-steps}
                transfer: {size: 1MiB}
                repetitions: 3
                implementations: [pacelab, ngtcp2]
                sweep:
                  cc: [cubic, newreno]
                  link.down.queue: [50p, 143p]
                """, ALL);
        assertEquals(8, p.configurations().size());
        assertEquals(24, p.runs().size());
        Configuration first = p.configurations().getFirst();
        assertEquals("pacelab cc=cubic down.queue=50p", first.name());
        assertEquals(Map.of("cc", "cubic", "slow-start", "onset-bdp-queue", "realtime", "on", "realtime-priority", "30"),
                first.serverOptions(), "as root the host set-up makes pacelab's sender SCHED_FIFO; CUBIC's default rule is named");
        assertEquals("queue=50p", first.linkDown());
        assertEquals(50, first.link().down().queue().value(), 0);
        assertEquals(40_000_000L, first.link().down().rateBps());
        assertEquals(List.of(1L, 2L, 3L), p.seeds());
        assertEquals(first.id() + "/2", p.runs().get(1).key());
        assertTrue(p.configurations().stream().anyMatch(c -> c.name().equals("ngtcp2 cc=newreno down.queue=143p")));
    }

    @Test
    void pacelabsDefaultSlowStartIsNamedSoRunsUnderAnOlderDefaultAreNotMixedIn() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                mode: sim
                implementations:
                  - {name: default, server: pacelab, client: pacelab}
                  - {name: hystart, server: pacelab, client: pacelab, options: {slow-start: hystart++}}
                  - {name: explicit, server: pacelab, client: pacelab, server-options: {slow-start: onset-bdp-queue}}
                  - {name: switch, server: pacelab, client: pacelab, options: {hystart: on}}
                  - {name: reno, server: pacelab, client: pacelab, options: {cc: newreno}}
                  - {name: bbr, server: pacelab, client: pacelab, options: {cc: bbr}}
                """, ALL, null);
        Map<String, Configuration> byName = new java.util.HashMap<>();
        p.configurations().forEach(c -> byName.put(c.implementation(), c));
        assertEquals("onset-bdp-queue", byName.get("default").serverOptions().get("slow-start"));
        assertEquals("hystart++", byName.get("hystart").serverOptions().get("slow-start"), "a rule given stays as given");
        assertFalse(byName.get("switch").serverOptions().containsKey("slow-start"), "the older switch names the rule itself");
        assertEquals("hystart++", byName.get("reno").serverOptions().get("slow-start"));
        assertEquals("onset", byName.get("bbr").serverOptions().get("slow-start"));
        assertFalse(byName.get("default").clientOptions().containsKey("slow-start"), "the client's rule shapes no measured flow");
        assertEquals(byName.get("default").id().replaceFirst("^default-", ""),
                byName.get("explicit").id().replaceFirst("^explicit-", ""),
                "the default and the same rule given are one configuration (the id's hash), whatever the row's name");
    }

    @Test
    void interleavedOrderRunsEachRepetitionOverEveryConfigurationBeforeTheNext() throws ScenarioException {
        String file = """
                link: {preset: quic-steps}
                transfer: {size: 1MiB}
                repetitions: 3
                implementations: [pacelab, ngtcp2]
                """;
        CampaignPlan grouped = Plans.plan(file, ALL);
        CampaignPlan interleaved = Plans.plan("order: interleaved\n" + file, ALL);
        String a = grouped.configurations().get(0).id();
        String b = grouped.configurations().get(1).id();
        assertEquals(List.of(a + "/1", a + "/2", a + "/3", b + "/1", b + "/2", b + "/3"),
                grouped.runs().stream().map(RunSpec::key).toList());
        assertEquals(List.of(a + "/1", b + "/1", a + "/2", b + "/2", a + "/3", b + "/3"),
                interleaved.runs().stream().map(RunSpec::key).toList());
        assertEquals(List.of(1L, 1L, 2L, 2L, 3L, 3L), interleaved.runs().stream().map(RunSpec::seed).toList(),
                "a repetition keeps its seed whatever the order");
    }

    @Test
    void aSweepWrittenAsAListIsTheUnionOfItsGridsAndEveryAxisNamesTheConfigurations() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                mode: sim
                link: {preset: none, up: {delay: 5ms}}
                implementations: [pacelab]
                sweep:
                  - {link.down.rate: [10mbit], transfer.size: [1MiB], link.down.delay: [5ms, 20ms]}
                  - {link.down.rate: [100mbit], transfer.size: [8MiB], link.down.delay: [5ms]}
                """, ALL);
        assertEquals(List.of("pacelab down.rate=10mbit size=1MiB down.delay=5ms",
                "pacelab down.rate=10mbit size=1MiB down.delay=20ms",
                "pacelab down.rate=100mbit size=8MiB down.delay=5ms"),
                p.configurations().stream().map(Configuration::name).toList());
        Configuration fast = p.configurations().get(2);
        assertEquals(100_000_000L, fast.link().down().rateBps());
        assertEquals(8L << 20, fast.transfer().bytesPerStream());
        assertEquals(Map.of("down.rate", "100mbit", "size", "8MiB", "down.delay", "5ms"), fast.sweepPoint());
    }

    @Test
    void slowStartOptionsAreCheckedWithTheController() throws ScenarioException {
        String m = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, options: "
                + "{cc: bbr, slow-start: search}}\n", ALL);
        assertTrue(m.startsWith("test.yaml:"), m);
        assertTrue(m.contains("--slow-start search applies only to --cc newreno and cubic"), m);
        // a rule's parameter without its rule is refused, naming the controller's default rule
        String r = Plans.refusal("implementations: [pacelab]\nsweep: {search-threshold: [0.2, 0.3]}\n", ALL);
        assertTrue(r.contains("--search-threshold is a parameter of --slow-start search, not of --slow-start "
                + "onset-bdp-queue (--cc cubic's default)"), r);
        String reno = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, options: "
                + "{cc: newreno}}\nsweep: {onset-delay: [1ms, 2ms]}\n", ALL);
        assertTrue(reno.contains("--onset-delay is a parameter of --slow-start onset"), reno);
        // a rule's parameter beside its rule is accepted, in the options and in a sweep
        CampaignPlan p = Plans.plan("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, options: "
                + "{slow-start: onset, onset-delay: 3ms}}\nsweep: {onset-delay: [2ms]}\n", ALL);
        assertEquals(1, p.configurations().size());
        // CUBIC's default rule (onset-bdp-queue) takes --onset-delay without --slow-start
        assertEquals(2, Plans.plan("implementations: [pacelab]\nsweep: {onset-delay: [1ms, 2ms]}\n", ALL)
                .configurations().size());
        String s = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, options: "
                + "{slow-start: onset, onset-delay: 300ms}}\n", ALL);
        assertTrue(s.contains("give a time from 0.1ms to 100ms"), s);
    }

    @Test
    void idsAreStableAndFollowTheSettings() throws ScenarioException {
        String yaml = "implementations: [pacelab]\nsweep: {cc: [cubic, bbr]}\n";
        CampaignPlan a = Plans.plan(yaml, ALL);
        CampaignPlan b = Plans.plan(yaml, ALL);
        assertEquals(a.configurations().get(0).id(), b.configurations().get(0).id());
        assertNotEquals(a.configurations().get(0).id(), a.configurations().get(1).id());
        CampaignPlan bigger = Plans.plan(yaml + "transfer: {size: 20MiB}\n", ALL);
        assertNotEquals(a.configurations().get(0).id(), bigger.configurations().get(0).id());
    }

    @Test
    void optionsGoToThePeersThatTakeThem() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                mode: netns
                implementations:
                  - {name: tcp, server: nginx, client: curl, options: {cc: bbr}}
                  - {name: ng, server: ngtcp2, client: ngtcp2, server-options: {gso: 1}, client-options: {cc: reno}}
                """, ALL);
        Configuration tcp = p.configurations().get(0);
        assertEquals(Map.of("cc", "bbr"), tcp.serverOptions());
        assertEquals(Map.of(), tcp.clientOptions());
        Configuration ng = p.configurations().get(1);
        assertEquals(Map.of("gso", "1"), ng.serverOptions());
        assertEquals(Map.of("cc", "reno"), ng.clientOptions());
    }

    @Test
    void unknownImplementationSuggestsAndListsTheValidOnes() {
        String m = Plans.refusal("implementations:\n  - ngtpc2\n", ALL);
        assertEquals("test.yaml:2:5: unknown implementation 'ngtpc2' (did you mean 'ngtcp2'?); valid: pacelab, ngtcp2, quiche, kwik, "
                + "picoquic, aioquic, quic-go, nginx, curl, chromium", m);
    }

    @Test
    void missingPeerBinaryIsRefusedBeforeAnythingStarts() {
        FakeHost noNgtcp2 = new FakeHost().with("nginx", "curl").root(true);
        String m = Plans.refusal("implementations:\n  - {name: ng, server: ngtcp2, client: ngtcp2}\n", noNgtcp2);
        assertEquals("test.yaml:1:1: ng (relay): ngtcp2 (server) cannot run here: gtlsserver is not installed (Debian package "
                + "ngtcp2-server); install it with 'pacelab peers install' (root) or 'apt-get install ngtcp2-server' "
                + "(or set 'unavailable: skip' to leave it out)", m);
    }

    @Test
    void unavailableConfigurationsAreSkippedWithTheirReasonWhenAsked() throws ScenarioException {
        FakeHost noRoot = new FakeHost().with("gtlsserver", "gtlsclient", "nginx", "curl").root(false);
        CampaignPlan p = Plans.plan("""
                unavailable: skip
                implementations:
                  - pacelab
                  - {name: tcp, server: nginx, client: curl, mode: netns}
                  - {name: sim, server: pacelab, client: pacelab, mode: sim}
                """, noRoot, "the simulator is not in this build");
        assertEquals(List.of("pacelab (relay)"), p.configurations().stream().map(Configuration::name).toList());
        assertEquals(List.of(
                "tcp (netns): skipped: netns mode needs root (network namespaces and TUN devices); run as root or use mode: relay",
                "sim (sim): skipped: the simulator is not in this build"), p.skipped());
    }

    @Test
    void nothingRunnableIsAnError() {
        String m = Plans.refusal("unavailable: skip\nmode: sim\nimplementations: [pacelab]\n", ALL, "the simulator is not in this build");
        assertTrue(m.startsWith("test.yaml: no configuration of this scenario can run here:"), m);
        assertTrue(m.contains("pacelab (sim): skipped: the simulator is not in this build"), m);
    }

    @Test
    void fqInRelayModeIsAnImpossibleCombination() {
        String m = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: {qdisc: fq}}\n", ALL);
        assertEquals("test.yaml:2:73: qdisc: fq cannot be used in relay mode: it would replace the qdisc of the host's loopback device "
                + "for every program; use mode: netns (root, and a kernel with fq) or mode: sim, where fq is modelled", m);
    }

    @Test
    void fqInNetnsModeNeedsTheKernelsQdisc() throws ScenarioException {
        String yaml = "mode: netns\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, options: {qdisc: fq}}\n";
        String m = Plans.refusal(yaml, ALL);
        assertEquals("test.yaml:1:7: p (netns): qdisc fq is not possible in netns mode here: this kernel (6.18-test) has no fq qdisc; "
                + "mode: sim models it (or set 'unavailable: skip' to leave it out)", m);
        CampaignPlan skipped = Plans.plan("unavailable: skip\nmode: [netns, sim]\nimplementations:\n"
                + "  - {name: p, server: pacelab, client: pacelab, server-options: {qdisc: fq, txtime: on}}\n", ALL);
        assertEquals(List.of("p (sim)"), skipped.configurations().stream().map(Configuration::name).toList());
        assertEquals(List.of("p (netns): skipped: qdisc fq is not possible in netns mode here: this kernel (6.18-test) has no fq "
                + "qdisc; mode: sim models it"), skipped.skipped());
        FakeHost withFq = FakeHost.everything().qdisc("fq", true, "the kernel has the fq qdisc");
        assertEquals("fq", Plans.plan(yaml, withFq).configurations().getFirst().qdisc());
    }

    @Test
    void txtimeInRelayModeIsAnImpossibleCombination() {
        String m = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: {pacer: interval, "
                + "txtime: on}}\n", ALL);
        assertEquals("test.yaml:2:91: implementation p, pacelab (server): txtime needs an fq or etf qdisc on the sender's egress, and "
                + "relay mode sends over the host's loopback device, where pacelab installs none; use mode: netns with server-options "
                + "{qdisc: fq}, or mode: sim", m);
    }

    @Test
    void sendPathOptionsAreCheckedTogether() {
        String m = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: "
                + "{paced-gso: on}}\n", ALL);
        assertTrue(m.contains("implementation p, pacelab (server): --paced-gso needs --txtime"), m);
        String v = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: {gso: 99}}\n", ALL);
        assertTrue(v.startsWith("test.yaml:2:71: pacelab gso: 99 segments is out of range; valid: auto, 1 (off) to 64"), v);
    }

    @Test
    void sendPathOptionsBecomeFlags() throws ScenarioException {
        CampaignPlan p = Plans.plan("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: "
                + "{gso: 16, txtime: on, paced-gso: on, qdisc: fq}}\n", ALL, null);
        Configuration c = p.configurations().getFirst();
        assertEquals("fq", c.qdisc());
        assertEquals(Map.of("gso", "16", "txtime", "on", "paced-gso", "on", "slow-start", "onset-bdp-queue"), c.serverOptions());
    }

    @Test
    void simModeChecksOptionsWithTheSimulatorsOwnRules() {
        String m = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: "
                + "{txtime: on}}\n", ALL);
        assertTrue(m.endsWith("implementation p, pacelab (server): txtime needs --qdisc fq or etf: pfifo ignores send times"), m);
        String c = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, client-options: "
                + "{gso: 4}}\n", ALL);
        assertTrue(c.contains("pacelab (client): gso is not modelled by the simulator for the client; in sim mode the client takes "
                + "send, the congestion options (shared with the server)"), c);
        String r = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: {fq-quantum: 3028}}\n",
                ALL);
        assertTrue(r.endsWith("fq-quantum is a parameter of the simulator's host model; it works in mode: sim only"), r);
        // one simulated server host per flow: sim mode only, two values
        String s = Plans.refusal("mode: sim\nimplementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: "
                + "{servers: each}}\n", ALL);
        assertTrue(s.contains("pacelab (server): servers: 'each' is not a server layout; valid: shared, per-flow"), s);
        String relay = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, server-options: "
                + "{servers: per-flow}}\n", ALL);
        assertTrue(relay.endsWith("servers is a parameter of the simulator's host model; it works in mode: sim only"), relay);
    }

    @Test
    void tcpPeersCannotCrossTheUdpRelay() {
        String m = Plans.refusal("implementations:\n  - {name: tcp, server: nginx, client: curl}\n", ALL);
        assertEquals("test.yaml:1:1: implementation tcp: nginx cannot run in relay mode; it runs in netns mode (it speaks TCP, which "
                + "the UDP relay does not carry; netns mode needs root)", m);
    }

    @Test
    void serverAndClientMustSpeakTheSameProtocol() {
        String m = Plans.refusal("mode: netns\nimplementations:\n  - {name: x, server: nginx, client: pacelab}\n", ALL);
        assertEquals("test.yaml:3:5: implementation x: server nginx speaks HTTP/2 over TLS over TCP but client pacelab speaks HTTP/3 "
                + "over QUIC or HTTP/0.9 over QUIC (hq-interop); pair peers that speak the same protocol", m);
    }

    @Test
    void aClientOnlyPeerCannotServe() {
        String m = Plans.refusal("implementations:\n  - {server: curl, client: curl}\n", ALL);
        assertTrue(m.startsWith("test.yaml:2:14: curl cannot be the server; servers: pacelab, ngtcp2, quiche, kwik, picoquic, aioquic, quic-go, nginx"), m);
    }

    @Test
    void optionNameTypoSuggests() {
        String m = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, options: {pacr: interval}}\n", ALL);
        assertTrue(m.startsWith("test.yaml:2:65: options: 'pacr' is not an option of pacelab (did you mean 'pacer'?); valid options: cc, "), m);
    }

    @Test
    void optionValuesAreCheckedPerPeer() {
        String m = Plans.refusal("implementations:\n  - {name: n, server: ngtcp2, client: ngtcp2, options: {cc: cubik}}\n", ALL);
        assertEquals("test.yaml:2:61: ngtcp2 cc: 'cubik' is not a congestion controller of ngtcp2; valid values: cubic, "
                + "newreno, reno, bbr, bbr2", m);
        String p = Plans.refusal("implementations: [pacelab]\nsweep: {pacer: [interval, leaky]}\n", ALL);
        assertEquals("test.yaml:2:27: pacelab pacer: 'leaky' is not a pacer; valid values are none, leaky-bucket, interval, token-bucket", p);
    }

    @Test
    void optionsThatDoNotGoTogetherAreRefused() {
        String m = Plans.refusal("implementations:\n  - {name: p, server: pacelab, client: pacelab, options: {cc: bbr, rollback: quiche}}\n", ALL);
        assertTrue(m.contains("implementation p, pacelab (server): --rollback quiche applies only to --cc cubic"), m);
    }

    @Test
    void sweepKeyTyposAndUnknownLinkFields() {
        String m = Plans.refusal("implementations: [pacelab]\nsweep: {cca: [cubic]}\n", ALL);
        assertTrue(m.startsWith("test.yaml:2:9: sweep: 'cca' is not an option of any peer (did you mean 'cc'?)"), m);
        String l = Plans.refusal("implementations: [pacelab]\nsweep: {link.down.qeue: [1p]}\n", ALL);
        assertTrue(l.startsWith("test.yaml:2:9: sweep: unknown link field 'qeue' in 'link.down.qeue' (did you mean 'queue'?)"), l);
    }

    @Test
    void linkValuesAreCheckedWhereTheyAreWritten() {
        String m = Plans.refusal("link: {preset: quic-steps, down: {rate: 40mbt}}\nimplementations: [pacelab]\n", ALL);
        assertEquals("test.yaml:1:41: link.down rate: '40mbt' is not a rate; use a number with bit, kbit, mbit, gbit (bits/s) or bps, "
                + "kbps, mbps, gbps (bytes/s, as in tc), e.g. 40mbit", m);
        String p = Plans.refusal("link: {preset: quic-step}\nimplementations: [pacelab]\n", ALL);
        assertTrue(p.startsWith("test.yaml:1:16: link.preset: unknown preset 'quic-step' (did you mean 'quic-steps'?)"), p);
    }

    @Test
    void duplicateConfigurationNamesAreRefused() {
        String m = Plans.refusal("implementations: [pacelab, pacelab]\n", ALL);
        assertTrue(m.contains("two configurations are both named 'pacelab'"), m);
    }

    @Test
    void simModeRunsOnlyPacelab() {
        String m = Plans.refusal("mode: sim\nimplementations: [ngtcp2]\n", ALL);
        assertEquals("test.yaml:1:7: implementation ngtcp2: ngtcp2 cannot run in sim mode; it runs in relay, netns mode (the simulator "
                + "runs pacelab's own stack only)", m);
    }

    @Test
    void modesAreNamedWhenAScenarioUsesSeveral() throws ScenarioException {
        CampaignPlan p = Plans.plan("mode: [relay, sim]\nimplementations: [pacelab]\n", ALL, null);
        assertEquals(List.of("pacelab (relay)", "pacelab (sim)"), p.configurations().stream().map(Configuration::name).toList());
        assertEquals(Mode.SIM, p.configurations().get(1).mode());
    }

    @Test
    void directModeHasNoLinkAndNoNamespace() throws ScenarioException {
        String link = "link: {preset: none, down: {wire: off}}\n";
        CampaignPlan p = Plans.plan("mode: direct\n" + link + "implementations:\n  - pacelab\n"
                + "  - {name: tcp, server: nginx, client: curl}\n", ALL);
        assertEquals(List.of("pacelab", "tcp"), p.configurations().stream().map(Configuration::name).toList());
        assertTrue(p.configurations().stream().allMatch(c -> c.mode() == Mode.DIRECT && !c.realtimeEmulator()));
        assertEquals("host set-up: none applied (no emulated run: direct runs have no emulator, and their goodput does not "
                + "depend on pacing precision)", p.hostSetup().summary());
        String shaped = Plans.refusal("mode: direct\nlink: {preset: quic-steps}\nimplementations: [pacelab]\n", ALL);
        assertTrue(shaped.startsWith("test.yaml:1:7: mode direct: server and client talk over loopback without the emulator"), shaped);
        String cc = Plans.refusal("mode: direct\n" + link + "implementations:\n  - {name: tcp, server: nginx, client: curl, "
                + "server-options: {cc: bbr}}\n", ALL);
        assertTrue(cc.contains("cc sets the network namespace's default TCP controller, which needs mode: netns"), cc);
        String fq = Plans.refusal("mode: direct\n" + link + "implementations:\n  - {name: p, server: pacelab, client: pacelab, "
                + "server-options: {qdisc: fq}}\n", ALL);
        assertTrue(fq.contains("qdisc: fq cannot be used in direct mode"), fq);
    }

    @Test
    void timeoutDefaultsFromSizeAndRate() throws ScenarioException {
        CampaignPlan p = Plans.plan("link: {preset: quic-steps}\ntransfer: {size: 100MiB}\nimplementations: [pacelab]\n", ALL);
        long expected = 60_000_000_000L + (long) (4 * 8.0 * (100L << 20) / 40e6 * 1e9);
        assertEquals(expected, p.configurations().getFirst().timeoutNs());
    }

    @Test
    void theHostSetupIsAppliedWhenRootAndSaysWhatIsLeftOutOtherwise() throws ScenarioException {
        String yaml = """
                mode: [relay, sim]
                implementations:
                  - pacelab
                  - {name: ng, server: ngtcp2, client: ngtcp2, mode: relay}
                  - {name: own, server: pacelab, client: pacelab, mode: relay, server-options: {realtime: "off"}}
                """;
        CampaignPlan root = Plans.plan(yaml, ALL);
        assertTrue(root.hostSetup().realtime());
        assertTrue(root.hostSetup().summary().startsWith("host set-up: real-time scheduling (root)"), root.hostSetup().summary());
        for (Configuration c : root.configurations()) {
            boolean emulated = c.mode() != Mode.SIM;
            assertEquals(emulated, c.realtimeEmulator(), c.name());
            boolean pacelabSender = c.server().name().equals("pacelab") && !c.implementation().equals("own");
            assertEquals(emulated && pacelabSender ? "on" : null, c.serverOptions().get("realtime") == null ? null
                    : c.serverOptions().get("realtime").equals("on") ? "on" : null, c.name());
            assertEquals(null, c.clientOptions().get("realtime"), "receivers stay at normal priority: " + c.name());
        }
        FakeHost user = new FakeHost().with("gtlsserver", "gtlsclient").root(false);
        CampaignPlan notRoot = Plans.plan(yaml, user);
        assertFalse(notRoot.hostSetup().realtime());
        assertTrue(notRoot.hostSetup().summary().startsWith("host set-up left out: not root"), notRoot.hostSetup().summary());
        assertTrue(notRoot.configurations().stream().noneMatch(Configuration::realtimeEmulator));
        assertTrue(notRoot.configurations().stream().noneMatch(c -> c.serverOptions().containsKey("realtime-priority")));
        String pacelabRelayId = root.configurations().getFirst().id();
        assertNotEquals(pacelabRelayId, notRoot.configurations().getFirst().id(), "a different set-up is a different configuration");
        assertFalse(Plans.plan("host-setup: off\n" + yaml, ALL).hostSetup().realtime());
        assertEquals("host set-up: none needed (every run is simulated; hosts are modelled)",
                Plans.plan("mode: sim\nimplementations: [pacelab]\n", ALL).hostSetup().summary());
        assertEquals("test.yaml:1:13: host-setup: on needs root (SCHED_FIFO for the emulator and pacelab's senders); run as root, "
                + "or use auto (applied when root) or off", Plans.refusal("host-setup: on\nimplementations: [pacelab]\n", user));
    }
}
