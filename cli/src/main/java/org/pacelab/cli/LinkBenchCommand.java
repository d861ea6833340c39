package org.pacelab.cli;

import java.util.concurrent.Callable;
import org.pacelab.net.bench.LinkBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pacelab bench link}: the link emulator's benchmarks. */
@Command(name = "link", mixinStandardHelpOptions = true,
        description = {"Link emulator benchmarks: the model's rate exactness and speed (virtual time), and on loopback the",
                "relay's achieved rate at 40 Mbit/s and 1 Gbit/s, delay error at 20 ms, unshaped maximum, arrival timestamps vs the kernel."})
public final class LinkBenchCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "5", description = "Length of each relay case (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--realtime", description = "Run the relay thread SCHED_FIFO (root).")
    boolean realtime;

    @Option(names = "--only", paramLabel = "CASE", description = "Run one case: model, rate40, rate1g, delay, unshaped.")
    String only;

    @Override
    public Integer call() throws Exception {
        if (seconds <= 0 || seconds > 600) {
            spec.commandLine().getErr().println("pacelab bench link: --seconds must be between 0 and 600, got " + seconds);
            return 2;
        }
        if (only != null && !java.util.List.of("model", "rate40", "rate1g", "delay", "unshaped").contains(only)) {
            spec.commandLine().getErr().println("pacelab bench link: --only: '" + only
                    + "' is not a case; valid: model, rate40, rate1g, delay, unshaped");
            return 2;
        }
        var out = spec.commandLine().getOut();
        if (only == null || only.equals("model")) {
            out.print(LinkBench.model(40_000_000L));
            out.print(LinkBench.model(1_000_000_000L));
            out.flush();
        }
        if (only == null || only.equals("rate40")) { out.print(LinkBench.relayRate(40_000_000L, seconds, realtime)); out.flush(); }
        if (only == null || only.equals("rate1g")) { out.print(LinkBench.relayRate(1_000_000_000L, seconds, realtime)); out.flush(); }
        if (only == null || only.equals("delay")) { out.print(LinkBench.relayDelay(seconds, realtime)); out.flush(); }
        if (only == null || only.equals("unshaped")) { out.print(LinkBench.relayUnshaped(seconds, realtime)); out.flush(); }
        return 0;
    }
}
