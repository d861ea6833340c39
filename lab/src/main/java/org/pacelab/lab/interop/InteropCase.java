package org.pacelab.lab.interop;

import java.io.IOException;

import org.pacelab.net.relay.Rebinding;

/**
 * One test case of the QUIC Interop Runner ({@code testcases_quic.py}), run locally: the test names the two endpoints
 * are given ({@code TESTCASE}), the files the client downloads, the network the runner's ns-3 scenario builds (as
 * overrides of pacelab's {@code interop-simple-p2p} preset and relay options), and the check of the result.
 *
 * @param name             the runner's name, e.g. {@code handshakeloss}
 * @param abbreviation     the runner's letters, e.g. {@code L1}
 * @param description      the runner's description
 * @param serverTestname   what the server is told ({@code TESTCASE})
 * @param clientTestname   what the client is told
 * @param files            what the client downloads
 * @param down             link overrides toward the client (server to client), or null
 * @param up               link overrides toward the server, or null
 * @param rebinding        NAT rebinding of the client's flows
 * @param family           the addresses the client connects to
 * @param preferredAddress whether the server gets a second address it may offer as its preferred address
 * @param certificateChain certificates in the server's chain (the amplification-limit case uses 9)
 * @param timeoutSeconds   how long the client may take
 * @param alpn             the application protocol the runner uses ({@code hq-interop}, or {@code h3} for http3)
 * @param check            the runner's check of the outcome
 */
public record InteropCase(String name, String abbreviation, String description, String serverTestname,
                          String clientTestname, CaseFiles files, String down, String up, Rebinding rebinding,
                          Family family, boolean preferredAddress, int certificateChain, int timeoutSeconds, String alpn,
                          Check check) {
    /** How the client reaches the server. */
    public enum Family { IPV4, IPV6 }

    /** The runner's check of a finished run. */
    @FunctionalInterface
    public interface Check {
        CheckResult check(CaseRun run) throws IOException, InterruptedException;
    }

    /** The test name for one role. */
    public String testname(org.pacelab.lab.peer.Role role) {
        return role == org.pacelab.lab.peer.Role.SERVER ? serverTestname : clientTestname;
    }

    /** The same case with another check (a measurement's repetition records its value through it). */
    public InteropCase withCheck(Check other) {
        return new InteropCase(name, abbreviation, description, serverTestname, clientTestname, files, down, up, rebinding, family,
                preferredAddress, certificateChain, timeoutSeconds, alpn, other);
    }
}
