package org.pacelab.lab.scenario;

import java.util.List;

/**
 * One dimension of the {@code sweep} grid: a key and the values it takes. Keys are a peer option for both roles
 * ({@code cc}), for one role ({@code server.cc}, {@code client.cc}), a link field ({@code link.down.queue}),
 * {@code transfer.size}, {@code transfer.streams} or {@code mode}.
 */
public record SweepAxis(Located<String> key, List<Located<String>> values) {}
