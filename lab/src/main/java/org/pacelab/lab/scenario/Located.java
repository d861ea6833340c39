package org.pacelab.lab.scenario;

/** A value and where the scenario file wrote it. */
public record Located<T>(T value, Location at) {}
