package org.pacelab.lab.interop;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.pacelab.lab.interop.InteropCase.Family;
import org.pacelab.net.relay.Rebinding;

/**
 * The QUIC Interop Runner's measurements ({@code testcases_quic.py}, {@code MEASUREMENTS}) that pacelab runs, and those
 * it cannot run with the reason. goodput ({@code MeasurementGoodput}): a 10 MiB file over the runner's link
 * (simple-p2p, 10 Mbit/s, 15 ms each way, queue of 25 packets), both endpoints told "transfer", 5 repetitions, the
 * case's default 60 s timeout. crosstraffic ({@code MeasurementCrossTraffic}) adds an iperf TCP flow (cubic) over the
 * same link, which pacelab's emulator, a UDP relay, cannot carry.
 */
public final class InteropMeasurements {
    /** The runner's goodput file: 10 MiB. */
    static final long GOODPUT_BYTES = 10L << 20;
    private static final Map<String, InteropMeasurement> MEASUREMENTS = new LinkedHashMap<>();
    private static final Map<String, String> NOT_HERE = Map.of("crosstraffic", "crosstraffic needs the runner's iperf TCP "
            + "flow (cubic) competing on the same emulated link, and pacelab's emulator is a UDP relay that carries only the "
            + "QUIC datagrams of the cell (docs/interop.md, \"Measurements\")");

    static {
        InteropCase goodput = new InteropCase("goodput", "G", "Measures connection goodput over a 10Mbps link.", "transfer",
                "transfer", CaseFiles.of(GOODPUT_BYTES), null, null, Rebinding.NONE, Family.IPV4, false, 1, 60, "hq-interop",
                run -> Goodput.check(run, GOODPUT_BYTES).result());
        MEASUREMENTS.put(goodput.name(), new InteropMeasurement(goodput, "kbps", 5));
    }

    private InteropMeasurements() {}

    public static List<InteropMeasurement> all() {
        return List.copyOf(MEASUREMENTS.values());
    }

    public static Optional<InteropMeasurement> get(String name) {
        return Optional.ofNullable(MEASUREMENTS.get(name.toLowerCase(Locale.ROOT)));
    }

    public static List<String> names() {
        return List.copyOf(MEASUREMENTS.keySet());
    }

    /** Why pacelab cannot run a measurement the runner has, or null when it is not one of those. */
    public static String notHere(String name) {
        return NOT_HERE.get(name.toLowerCase(Locale.ROOT));
    }
}
