package org.pacelab.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code pacelab bench ...}: benchmarks, one subcommand per subject. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (results go to docs/benchmarks.md).",
        subcommands = {LinkBenchCommand.class, LoopbackBenchCommand.class})
public final class BenchCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }
}
