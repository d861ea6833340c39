package org.pacelab.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code pacelab peer}: the third-party QUIC peers pacelab ships (quiche through Netty, Kwik with Flupke), each
 * as its own process for tests and the experiment runner. Servers print {@code listening on ADDR:PORT} on stderr
 * when ready and stop cleanly on SIGTERM; clients exit non-zero when any download fails.
 */
@Command(name = "peer", mixinStandardHelpOptions = true,
        description = {"Third-party QUIC peers shipped with pacelab (separate processes for tests and the runner).",
                "None of them paces: quiche's send times are ignored by Netty, Kwik has no pacer."},
        subcommands = {
                QuicheServerCommand.class,
                QuicheClientCommand.class,
                KwikServerCommand.class,
                KwikClientCommand.class,
        })
public final class PeerCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
