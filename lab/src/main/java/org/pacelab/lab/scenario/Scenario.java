package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Map;

/**
 * A scenario file as read and checked for form (keys, types, units); what depends on peers, the kernel and the
 * build is checked when it is planned ({@link CampaignPlanner}).
 *
 * @param source      the file name used in locations
 * @param text        the file's text (stored with the campaign)
 * @param seeds       one seed per repetition
 * @param timeoutNs   the per-run timeout, or 0 for one derived from the size and the link's rate
 * @param linkDown    overrides of the preset's server-to-client direction, by link key
 * @param dc          the dual-connectivity link, its client/server pairs and their download time, or null
 * @param peers       peers declared by command line in the scenario or the peers files it includes
 * @param hostSetup   whether the real-time host set-up is applied (auto: when root)
 * @param emulatorWarmUp packets the emulator of every relay and netns run warms up with before it reports ready
 *                    ({@code emulator-warmup:}; 0: off)
 * @param order       the order of the campaign's runs ({@code order:}; grouped by configuration unless interleaved)
 */
public record Scenario(String source, String text, String name, String description, String reproduces,
                       List<Located<Mode>> modes, Located<String> preset, Map<String, Located<String>> linkDown,
                       Map<String, Located<String>> linkUp, Located<Transfer> transfer, Location sizeAt,
                       Location streamsAt, int repetitions, List<Long> seeds, long timeoutNs,
                       List<Implementation> implementations, List<SweepAxis> sweep, Collect collect,
                       boolean skipUnavailable, DcScenario dc, List<PeerDeclaration> peers, Located<HostSetup> hostSetup,
                       Located<Integer> emulatorWarmUp, Located<RunOrder> order) {
    public static final List<String> KEYS = List.of("name", "description", "reproduces", "mode", "link", "transfer",
            "repetitions", "seed", "seeds", "timeout", "implementations", "sweep", "collect", "unavailable", "flows", "quick",
            "host-setup", "emulator-warmup", "include", "peers", "order");
    public static final List<String> LINK_KEYS = List.of("preset", "down", "up", "dc");
    public static final List<String> TRANSFER_KEYS = List.of("size", "streams", "duration");
}
