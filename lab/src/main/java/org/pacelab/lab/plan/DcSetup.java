package org.pacelab.lab.plan;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;

/**
 * The dual-connectivity part of one configuration, resolved: the link (two downlink paths, splitter, reordering
 * receiver, one uplink), the client/server pairs sharing it and how long they download.
 *
 * @param spec       the resolved link
 * @param dcFields   the {@code --dc} fields (split, batch, ratio, ...) as written, sweep values applied
 * @param pathA      the {@code --path-a} fields
 * @param pathB      the {@code --path-b} fields
 * @param flows      one entry per client/server pair: dc, a or b
 * @param durationNs fixed download time of every pair, or 0 when each downloads the transfer's size
 */
public record DcSetup(DcSpec spec, String dcFields, String pathA, String pathB, List<DcFlowMode> flows, long durationNs) {
    public DcSetup {
        flows = List.copyOf(flows);
    }

    /** The link options of {@code pacelab emulate} / {@code pacelab netns up} (the uplink is {@code --up}). */
    public List<String> emulatorArguments() {
        List<String> a = new ArrayList<>(List.of("--dc", dcFields));
        if (!pathA.isEmpty()) a.addAll(List.of("--path-a", pathA));
        if (!pathB.isEmpty()) a.addAll(List.of("--path-b", pathB));
        return a;
    }

    /** "dc, a, b" */
    public String flowWords() {
        return String.join(", ", flows.stream().map(DcFlowMode::label).toList());
    }
}
