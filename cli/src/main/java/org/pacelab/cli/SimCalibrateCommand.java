package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.pacelab.sim.calibrate.HostCalibration;
import org.pacelab.sim.host.HostTiming;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pacelab sim calibrate}: measures this host's timing for the simulator's host model. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measures this host for the simulator: how late park, park-tight and spin waits and the socket's "
                + "readiness wait resume, the cost of sendmsg, sendmmsg, GSO sends and receives on loopback, and the QUIC "
                + "stack's CPU time per datagram. Writes a file for 'pacelab sim --host-model FILE'.",
                "Takes 25-60 s (--quick: about 10 s). Run it on an otherwise idle machine for numbers that describe the host."})
public final class SimCalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Where to write the calibration (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("host-timing.json");

    @Option(names = "--quick", description = "Fewer samples (about ten times fewer): a rough calibration.")
    boolean quick;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        try {
            HostTiming t = HostCalibration.measure(quick ? HostCalibration.Effort.quick() : HostCalibration.Effort.standard(), stdout);
            t.write(out);
            stdout.println("wrote " + out + " (" + t.source() + ")");
            return 0;
        } catch (IOException | RuntimeException e) {
            spec.commandLine().getErr().println("pacelab sim calibrate: " + e.getMessage());
            return 1;
        }
    }
}
