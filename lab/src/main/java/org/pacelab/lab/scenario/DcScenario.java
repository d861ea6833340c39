package org.pacelab.lab.scenario;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.pacelab.net.dc.DcFlowMode;

/**
 * The dual-connectivity part of a scenario ({@code link.dc}, {@code flows}, {@code transfer.duration}): the link's
 * splitter and receiver fields and its two paths, the client/server pairs that share them, and how long each pair
 * downloads.
 *
 * @param fields     {@code link.dc} fields in the {@code pacelab emulate --dc} grammar (split, batch, ratio, ...)
 * @param a          path a's link fields (those of {@code --path-a})
 * @param b          path b's link fields
 * @param flows      one entry per client/server pair: dc (split over both paths), a or b (that path only)
 * @param durationNs how long every pair downloads (fixed-duration runs), or 0 to download {@code transfer.size} each
 * @param at         where {@code link.dc} was written
 */
public record DcScenario(Map<String, Located<String>> fields, Map<String, Located<String>> a,
                         Map<String, Located<String>> b, List<Located<DcFlowMode>> flows, long durationNs, Location at) {
    /** The study's run length: fixed-duration downloads of 3 minutes. */
    public static final long DEFAULT_DURATION_NS = 180_000_000_000L;

    public DcScenario {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        a = Collections.unmodifiableMap(new LinkedHashMap<>(a));
        b = Collections.unmodifiableMap(new LinkedHashMap<>(b));
        flows = List.copyOf(flows);
    }

    /** Fields as {@code key=value} text, in the map's order. */
    public static String text(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
