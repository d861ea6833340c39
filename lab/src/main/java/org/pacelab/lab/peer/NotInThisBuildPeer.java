package org.pacelab.lab.peer;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * A peer pacelab knows by name whose program is not part of this build (e.g. the Netty/quiche and Kwik peer
 * programs before they are merged): listed by {@code pacelab peers} with the reason, refused by scenarios.
 */
public record NotInThisBuildPeer(String name, String summary, Protocol protocol, Set<Role> roles, String reason) implements Peer {
    @Override
    public Set<Mode> modes() {
        return EnumSet.of(Mode.RELAY, Mode.NETNS);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return List.of();
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return Availability.missing(reason);
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        return name + " (not in this build)";
    }

    @Override
    public Launch server(ServerSetup setup, PacelabLauncher pacelab) {
        throw new UnsupportedOperationException(reason);
    }

    @Override
    public Launch client(ClientSetup setup, PacelabLauncher pacelab) {
        throw new UnsupportedOperationException(reason);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup setup, Path stdout) {
        throw new UnsupportedOperationException(reason);
    }
}
