package org.pacelab.lab.interop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;

/**
 * pacelab's own stack through {@code pacelab endpoint}, the QUIC Interop Runner interface (ROLE, TESTCASE, REQUESTS,
 * SSLKEYLOGFILE, QLOGDIR in the environment). The endpoint itself decides which test names it supports: it exits
 * 127 with a sentence for the others, exactly as it would in the runner.
 */
final class PacelabEndpoint extends PeerBackedEndpoint {
    PacelabEndpoint() {
        super("pacelab");
    }

    @Override
    public Set<String> protocols(Role role) {
        return Set.of("hq-interop", "h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        return null; // the endpoint answers test names it lacks with exit status 127
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) {
        List<String> args = new ArrayList<>(List.of("endpoint", "--www", s.www().toString(), "--certs", s.certificates().toString(),
                "--listen", address(s.listen())));
        if (s.preferred() != null) {
            // RFC 9000 §9.6: the server listens on its second address too and offers the relay's route to it
            args.addAll(List.of("--preferred-address", address(s.preferred()), "--advertise-preferred", address(s.advertised())));
        }
        return Launch.of(pacelab.command(args), env(s, Role.SERVER), new Readiness.UdpBound(s.listen().getPort()));
    }

    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) {
        List<String> args = new ArrayList<>(List.of("endpoint", "--downloads", s.downloads().toString(), "--alpn", s.alpn()));
        Map<String, String> env = env(s, Role.CLIENT);
        env.put("REQUESTS", String.join(" ", s.urls()));
        return List.of(Launch.of(pacelab.command(args), env, null));
    }

    private static Map<String, String> env(EndpointSetup s, Role role) {
        Map<String, String> env = new HashMap<>();
        env.put("ROLE", role.word());
        env.put("TESTCASE", s.testname());
        if (s.keyLog() != null) {
            env.put("SSLKEYLOGFILE", s.keyLog().toString());
        }
        if (s.qlogDir() != null) {
            env.put("QLOGDIR", s.qlogDir().toString());
        }
        return env;
    }
}
