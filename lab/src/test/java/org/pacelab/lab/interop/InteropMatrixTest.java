package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;

/** What is decided before a run: the protocol, and test names an endpoint does not take. */
class InteropMatrixTest {
    record Fake(String name, Set<String> protocols, Set<String> refused) implements InteropEndpoint {
        @Override public Set<String> protocols(Role role) { return protocols; }
        @Override public String unsupported(Role role, String testname) {
            return refused.contains(testname) ? "no option for " + testname : null;
        }
        @Override public Availability availability(Role role, Host host, PacelabLauncher pacelab) { return Availability.USABLE; }
        @Override public String version(Role role, Host host, PacelabLauncher pacelab) { return "1"; }
        @Override public Launch server(EndpointSetup setup, PacelabLauncher pacelab) { throw new UnsupportedOperationException(); }
        @Override public List<Launch> client(EndpointSetup setup, PacelabLauncher pacelab) { throw new UnsupportedOperationException(); }
    }

    @Test
    void protocolIsTheRunnersUnlessOnlyHttp3IsShared() {
        Fake both = new Fake("both", Set.of("h3", "hq-interop"), Set.of());
        Fake h3 = new Fake("h3only", Set.of("h3"), Set.of());
        Fake hq = new Fake("hqonly", Set.of("hq-interop"), Set.of());
        InteropCase transfer = InteropCases.get("transfer").orElseThrow();
        InteropCase http3 = InteropCases.get("http3").orElseThrow();
        assertEquals("hq-interop", InteropMatrix.alpn(transfer, both, both));
        assertEquals("h3", InteropMatrix.alpn(transfer, both, h3));
        assertEquals("h3", InteropMatrix.alpn(http3, both, both));
        assertNull(InteropMatrix.alpn(http3, both, hq));
        assertNull(InteropMatrix.alpn(transfer, h3, hq));
        assertEquals(CheckResult.unsupported("HTTP/3 is not spoken by client hqonly"),
                InteropMatrix.before(http3, both, hq, null));
        assertEquals(CheckResult.unsupported("no common application protocol (server h3only: h3; client hqonly: hq-interop)"),
                InteropMatrix.before(transfer, h3, hq, null));
    }

    @Test
    void anEndpointThatRefusesATestNameMakesTheCellUnsupported() {
        Fake both = new Fake("both", Set.of("h3", "hq-interop"), Set.of());
        Fake noMulti = new Fake("nomulti", Set.of("h3", "hq-interop"), Set.of("multiconnect"));
        InteropCase l1 = InteropCases.get("handshakeloss").orElseThrow();
        assertEquals(CheckResult.unsupported("client nomulti: no option for multiconnect"), InteropMatrix.before(l1, both, noMulti, "hq-interop"));
        assertEquals(CheckResult.unsupported("server nomulti: no option for multiconnect"), InteropMatrix.before(l1, noMulti, both, "hq-interop"));
        assertNull(InteropMatrix.before(l1, both, both, "hq-interop"));
    }
}
