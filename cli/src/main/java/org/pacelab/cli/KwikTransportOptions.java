package org.pacelab.cli;

import java.nio.file.Path;

import org.pacelab.peers.kwik.KwikOptions;

import picocli.CommandLine.Option;

/** The Kwik options {@code pacelab peer kwik-server} and {@code kwik-client} share. */
final class KwikTransportOptions {
    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Idle timeout (default: 30s).")
    long idleTimeout = 30_000_000_000L;

    @Option(names = "--log-packets", description = "Print Kwik's packet log on stdout.")
    boolean logPackets;

    /** Kwik's defaults with these options, writing TLS secrets to {@code keylog} (none when null). */
    KwikOptions options(Path keylog) {
        KwikOptions d = KwikOptions.defaults();
        return new KwikOptions(keylog, d.connectionWindow(), d.streamWindow(), idleTimeout / 1_000_000, logPackets, null);
    }
}
