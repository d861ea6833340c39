package org.pacelab.lab.peer;

import java.nio.file.Path;

/**
 * What a client reported after it exited: the body bytes it received, and its JSON client log (request and
 * last-byte times, as {@code pacelab client --json} writes it) when it has one.
 */
public record ClientOutcome(long bytes, Path clientLog) {}
