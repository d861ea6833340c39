package org.pacelab.sim.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;
import org.pacelab.sim.host.CallTimer;
import org.pacelab.sim.host.HostConfig;
import org.pacelab.sim.host.HostTiming;
import org.pacelab.sim.host.QdiscConfig;
import org.pacelab.sim.host.SendPathConfig;

/**
 * Measures the CPU time pacelab's QUIC stack spends per datagram, under the packet mix of a real experiment: a
 * simulated quic-steps HTTP/3 download (the server writing its qlog, as in measured runs) with an ideal host, each
 * connection call timed on the wall clock ({@link CallTimer}). A warm-up download first lets the JIT compile the
 * paths; then the medians of small (acknowledgement) and full-size (data) datagrams are the build and process
 * costs.
 */
final class StackCostProbe {
    /** Medians in ns per call, for small (acknowledgement) and full-size (data) datagrams. */
    record Costs(long buildSmall, long buildFull, long processSmall, long processFull) {}

    private StackCostProbe() {}

    static Costs measure(long warmupBytes, long measureBytes) throws IOException {
        Path dir = Files.createTempDirectory("pacelab-calibrate");
        try {
            HostConfig ideal = new HostConfig("park", SendPathConfig.plain(), new QdiscConfig.Pfifo(), HostTiming.ideal(), 32L << 20);
            SimScenario s = SimScenario.defaults(dir, ideal).withAnalyze(false);
            Simulation.run(s.withTransfer(warmupBytes, 1));
            Samples samples = new Samples();
            Simulation.run(s.withTransfer(measureBytes, 1).withSeed(2), samples);
            return new Costs(Stats.median(samples.smallSent.toArray()), Stats.median(samples.fullSent.toArray()),
                    Stats.median(samples.smallReceived.toArray()), Stats.median(samples.fullReceived.toArray()));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Call durations split into small (under 200 bytes) and full-size (1000 bytes or more) datagrams. */
    private static final class Samples implements CallTimer {
        final LongList smallSent = new LongList();
        final LongList fullSent = new LongList();
        final LongList smallReceived = new LongList();
        final LongList fullReceived = new LongList();

        @Override
        public void sent(int length, long nanos) {
            add(smallSent, fullSent, length, nanos);
        }

        @Override
        public void received(int length, long nanos) {
            add(smallReceived, fullReceived, length, nanos);
        }

        private static void add(LongList small, LongList full, int length, long nanos) {
            if (length < 200) {
                small.add(nanos);
            } else if (length >= 1000) {
                full.add(nanos);
            }
        }
    }

    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
