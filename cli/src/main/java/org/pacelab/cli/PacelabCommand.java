package org.pacelab.cli;

import picocli.CommandLine.Command;

/** The top-level {@code pacelab} command; each subcommand lives in its own class. */
@Command(name = "pacelab",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "A laboratory for packet pacing in QUIC.",
        subcommands = {
                picocli.CommandLine.HelpCommand.class,
                ServerCommand.class,
                ClientCommand.class,
                EndpointCommand.class,
                EmulateCommand.class,
                NetnsCommand.class,
                BenchCommand.class,
                JvmCacheCommand.class,
                AnalyzeCommand.class,
                ReportCommand.class,
                RunCommand.class,
                ReproduceCommand.class,
                SlurmTaskCommand.class,
                PeersCommand.class,
                SimCommand.class,
                PeerCommand.class,
                DcCommand.class,
                InteropCommand.class,
        })
public final class PacelabCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
