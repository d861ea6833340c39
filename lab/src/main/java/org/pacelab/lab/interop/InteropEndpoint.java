package org.pacelab.lab.interop;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;

/**
 * An implementation as the interop matrix drives it: which test names it handles in each role (the runner's
 * images exit 127 for the others; here the endpoint says why), and how to start it for one. A client may be several
 * processes run one after the other (two connections for resumption, one per URL for multiconnect).
 */
public interface InteropEndpoint {
    /** The name in the matrix and on the command line, e.g. {@code ngtcp2}. */
    String name();

    /** Application protocols it speaks in this role ({@code hq-interop}, {@code h3}). */
    Set<String> protocols(Role role);

    /** Why it cannot take this test name in this role, or null when it can. */
    String unsupported(Role role, String testname);

    /**
     * Why it cannot take this test name in this role over this application protocol (the pair's), or null when it can;
     * asked after {@link #unsupported(Role, String)} found nothing. By default nothing more.
     */
    default String unsupported(Role role, String testname, String alpn) {
        return null;
    }

    Availability availability(Role role, Host host, PacelabLauncher pacelab);

    String version(Role role, Host host, PacelabLauncher pacelab);

    /** Whether it writes an NSS key log in this role. */
    default boolean writesKeyLog(Role role) {
        return true;
    }

    Launch server(EndpointSetup setup, PacelabLauncher pacelab) throws IOException;

    /** The client's processes, run in order; each must exit 0. */
    List<Launch> client(EndpointSetup setup, PacelabLauncher pacelab) throws IOException;
}
