package org.pacelab.lab.scenario;

import java.util.List;

/**
 * One dimension of the {@code sweep} grid: a key and the values it takes. Keys are a peer option for both roles
 * ({@code cc}), for one role ({@code server.cc}, {@code client.cc}), a link field ({@code link.down.queue}),
 * {@code transfer.size}, {@code transfer.streams} or {@code mode}.
 *
 * @param grid which grid of the sweep the axis belongs to: a sweep written as a list of mappings is the union of
 *             their grids (each a cartesian product of its own axes), numbered from 0; a single mapping is grid 0
 */
public record SweepAxis(Located<String> key, List<Located<String>> values, int grid) {
    /** An axis of the single grid. */
    public SweepAxis(Located<String> key, List<Located<String>> values) {
        this(key, values, 0);
    }
}
