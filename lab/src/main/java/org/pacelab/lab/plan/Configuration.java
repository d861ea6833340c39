package org.pacelab.lab.plan;

import java.util.Map;

import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.Protocol;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.Transfer;
import org.pacelab.net.spec.LinkSpec;

/**
 * One configuration of a campaign: an implementation in one mode at one point of the sweep grid, with everything
 * resolved (peers, options per role, link, transfer). Its repetitions differ only in their seed.
 *
 * @param name          unique within the campaign; the report's row label
 * @param id            stable identity (name slug and a hash of the settings) naming its directory and store rows
 * @param qdisc         the server host's qdisc: none, fq or etf
 * @param linkDown      the preset's downlink overrides as {@code key=value} fields (what {@code --down} takes)
 * @param timeoutNs     how long one run may take, wall clock
 * @param dc            the dual-connectivity link and its client/server pairs, or null for one pair over {@code link}
 * @param realtimeEmulator whether the emulator runs SCHED_FIFO (the host set-up, {@link AppliedHostSetup})
 * @param emulatorWarmUp   packets the emulator warms up with before it reports ready (its {@code --warmup}); 0: off, and
 *                         always 0 outside relay and netns mode
 */
public record Configuration(String name, String id, String implementation, Mode mode, Peer server, Peer client,
                            Map<String, String> serverOptions, Map<String, String> clientOptions, String qdisc,
                            String preset, String linkDown, String linkUp, LinkSpec link, Transfer transfer,
                            Map<String, String> sweepPoint, long timeoutNs, DcSetup dc, boolean realtimeEmulator,
                            int emulatorWarmUp) {
    public Configuration {
        serverOptions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(serverOptions));
        clientOptions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(clientOptions));
        sweepPoint = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sweepPoint));
    }

    /** What server and client speak: the first of the server's protocols the client speaks too. */
    public Protocol protocol() {
        return Protocol.common(server.protocols(), client.protocols());
    }

    /** One client/server pair over a single-path link. */
    public Configuration(String name, String id, String implementation, Mode mode, Peer server, Peer client,
                         Map<String, String> serverOptions, Map<String, String> clientOptions, String qdisc,
                         String preset, String linkDown, String linkUp, LinkSpec link, Transfer transfer,
                         Map<String, String> sweepPoint, long timeoutNs) {
        this(name, id, implementation, mode, server, client, serverOptions, clientOptions, qdisc, preset, linkDown, linkUp,
                link, transfer, sweepPoint, timeoutNs, null, false, 0);
    }
}
