package org.pacelab.lab.scenario;

import java.util.List;

/** Command-line changes to a scenario ({@code pacelab run --repetitions N --size SIZE}), applied before planning. */
public final class ScenarioOverrides {
    private ScenarioOverrides() {}

    /** The scenario with {@code n} repetitions; consecutive seeds are extended or cut, explicit ones must match. */
    public static Scenario withRepetitions(Scenario s, int n) throws ScenarioException {
        if (n < 1) {
            throw new ScenarioException(List.of("--repetitions: must be at least 1, got " + n));
        }
        List<Long> seeds = s.seeds();
        long first = seeds.getFirst();
        if (!seeds.equals(SeedList.from(first, seeds.size()))) {
            throw new ScenarioException(List.of("--repetitions: " + s.source() + " lists its seeds one by one; change the "
                    + "seeds list in the file instead"));
        }
        return new Scenario(s.source(), s.text(), s.name(), s.description(), s.reproduces(), s.modes(), s.preset(), s.linkDown(),
                s.linkUp(), s.transfer(), s.sizeAt(), s.streamsAt(), n, SeedList.from(first, n), s.timeoutNs(),
                s.implementations(), s.sweep(), s.collect(), s.skipUnavailable(), s.dc(), s.peers(), s.hostSetup(), s.emulatorWarmUp(), s.order());
    }

    /** The scenario with each stream transferring {@code bytes}. */
    public static Scenario withSize(Scenario s, long bytes) {
        Transfer t = new Transfer(bytes, s.transfer().value().streams());
        return new Scenario(s.source(), s.text(), s.name(), s.description(), s.reproduces(), s.modes(), s.preset(), s.linkDown(),
                s.linkUp(), new Located<>(t, s.transfer().at()), s.sizeAt(), s.streamsAt(), s.repetitions(), s.seeds(),
                s.timeoutNs(), s.implementations(), s.sweep(), s.collect(), s.skipUnavailable(), s.dc(), s.peers(), s.hostSetup(), s.emulatorWarmUp(), s.order());
    }

    /** The scenario with only the named implementations ({@code pacelab run --only a,b}). */
    public static Scenario only(Scenario s, List<String> names) throws ScenarioException {
        List<String> known = s.implementations().stream().map(i -> i.name().value()).toList();
        for (String n : names) {
            if (!known.contains(n)) {
                throw new ScenarioException(List.of("--only: " + s.source() + " has no implementation named '" + n + "'"
                        + Suggestions.didYouMean(n, known) + "; its implementations: " + String.join(", ", known)));
            }
        }
        List<Implementation> kept = s.implementations().stream().filter(i -> names.contains(i.name().value())).toList();
        return new Scenario(s.source(), s.text(), s.name(), s.description(), s.reproduces(), s.modes(), s.preset(), s.linkDown(),
                s.linkUp(), s.transfer(), s.sizeAt(), s.streamsAt(), s.repetitions(), s.seeds(), s.timeoutNs(), kept, s.sweep(),
                s.collect(), s.skipUnavailable(), s.dc(), s.peers(), s.hostSetup(), s.emulatorWarmUp(), s.order());
    }

    /** The scenario with its runs in this order ({@code pacelab run --order}). */
    public static Scenario withOrder(Scenario s, RunOrder order) {
        return new Scenario(s.source(), s.text(), s.name(), s.description(), s.reproduces(), s.modes(), s.preset(), s.linkDown(),
                s.linkUp(), s.transfer(), s.sizeAt(), s.streamsAt(), s.repetitions(), s.seeds(), s.timeoutNs(),
                s.implementations(), s.sweep(), s.collect(), s.skipUnavailable(), s.dc(), s.peers(), s.hostSetup(), s.emulatorWarmUp(),
                new Located<>(order, s.order().at()));
    }

    /** The scenario with configurations that cannot run on this host left out with their reason, whatever it says. */
    public static Scenario skippingUnavailable(Scenario s) {
        return new Scenario(s.source(), s.text(), s.name(), s.description(), s.reproduces(), s.modes(), s.preset(), s.linkDown(),
                s.linkUp(), s.transfer(), s.sizeAt(), s.streamsAt(), s.repetitions(), s.seeds(), s.timeoutNs(),
                s.implementations(), s.sweep(), s.collect(), true, s.dc(), s.peers(), s.hostSetup(), s.emulatorWarmUp(), s.order());
    }
}
