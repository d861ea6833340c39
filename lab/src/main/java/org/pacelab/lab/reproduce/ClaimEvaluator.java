package org.pacelab.lab.reproduce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.reproduce.ClaimRow.Verdict;
import org.pacelab.lab.reproduce.StudyReference.Agreement;
import org.pacelab.lab.reproduce.StudyReference.Claim;
import org.pacelab.lab.reproduce.StudyReference.Kind;
import org.pacelab.lab.reproduce.StudyReference.Measure;
import org.pacelab.lab.reproduce.StudyReference.Published;
import org.pacelab.lab.scenario.Implementation;
import org.pacelab.lab.scenario.Mode;

/**
 * Puts pacelab's measurements next to a study's claims: finds each claim's configurations in the campaigns, takes
 * the metric over their finished repetitions, and decides per mode whether the claim is reproduced (by the claim's
 * agreement rule or, for findings, by their direction), differs (with the measured context that explains it), or
 * cannot be measured here (with the reason: not in this build, not runnable on this host, left out by --quick or
 * --mode, no finished run, or a metric the run could not compute).
 */
final class ClaimEvaluator {
    /** A relation holds when the two means differ by more than this share, in the published direction. */
    static final double RELATION_MARGIN = 0.05;

    private final Map<String, PlannedCampaign> campaigns;
    private final PeerRegistry peers;

    ClaimEvaluator(Map<String, PlannedCampaign> campaigns, PeerRegistry peers) {
        this.campaigns = Map.copyOf(campaigns);
        this.peers = peers;
    }

    // ---- checks before anything runs -------------------------------------------------------------------------

    /** Problems of the claims against the campaigns' plans (unknown sweep axes, points that pick several configurations). */
    List<String> check(List<Claim> claims) {
        List<String> problems = new ArrayList<>();
        for (Claim c : claims) {
            check(c, c.measure(), "pacelab", problems);
            if (c.versus() != null) {
                check(c, c.versus(), "versus", problems);
            }
        }
        return problems;
    }

    private void check(Claim c, Measure m, String key, List<String> problems) {
        PlannedCampaign pc = campaigns.get(m.campaign());
        if (pc == null) {
            return;
        }
        List<Configuration> impl = pc.full().configurations().stream().filter(x -> x.implementation().equals(m.implementation())).toList();
        if (impl.isEmpty()) {
            return; // not in the scenario or not runnable here: reported as "cannot measure" with the reason
        }
        Set<String> axes = new TreeSet<>();
        impl.forEach(x -> axes.addAll(x.sweepPoint().keySet()));
        String name = m.at() + ": claim '" + c.id() + "' " + key;
        for (String k : m.point().keySet()) {
            if (!axes.contains(k)) {
                problems.add(name + ".point: '" + k + "' is not a sweep axis of " + m.implementation() + " in " + pc.scenarioName()
                        + (axes.isEmpty() ? " (it has no sweep)" : "; its axes: " + String.join(", ", axes)));
            }
        }
        if (m.over() != null && !axes.contains(m.over())) {
            problems.add(name + ".over: '" + m.over() + "' is not a sweep axis of " + m.implementation() + " in " + pc.scenarioName()
                    + (axes.isEmpty() ? " (it has no sweep)" : "; its axes: " + String.join(", ", axes)));
        }
        if (m.over() == null) {
            Map<Mode, List<Configuration>> byMode = new LinkedHashMap<>();
            for (Configuration x : matching(impl, m)) {
                byMode.computeIfAbsent(x.mode(), k -> new ArrayList<>()).add(x);
            }
            for (Map.Entry<Mode, List<Configuration>> e : byMode.entrySet()) {
                if (e.getValue().size() > 1) {
                    Set<String> free = new TreeSet<>(axes);
                    free.removeAll(m.point().keySet());
                    problems.add(name + ": " + e.getValue().size() + " configurations of " + m.implementation() + " match in "
                            + e.getKey().word() + " mode; pin " + String.join(", ", free) + " with point");
                    break;
                }
            }
        }
    }

    // ---- evaluation ------------------------------------------------------------------------------------------

    List<ClaimRow> evaluate(Claim c) {
        Published p = c.published();
        String study = studyText(c);
        Found main = find(c.measure());
        if (main.why != null) {
            Map<Mode, String> skipped = skippedHere(c.measure());
            if (campaigns.get(c.measure().campaign()) != null && campaigns.get(c.measure().campaign()).absent() == null
                    && !skipped.isEmpty()) {
                List<ClaimRow> rows = new ArrayList<>();
                skipped.forEach((mode, why) -> rows.add(modeRow(c, mode, study, "not runnable on this host: " + why)));
                return rows;
            }
            return List.of(ClaimRow.cannotMeasure(c, study, main.why));
        }
        Found versus = c.versus() == null ? null : find(c.versus());
        if (versus != null && versus.why != null) {
            return List.of(ClaimRow.cannotMeasure(c, study, "the comparison: " + versus.why));
        }
        List<ClaimRow> rows = new ArrayList<>();
        skippedHere(c.measure()).forEach((mode, why) -> {
            if (!main.byMode.containsKey(mode)) {
                rows.add(modeRow(c, mode, study, "not runnable on this host: " + why));
            }
        });
        for (Map.Entry<Mode, List<Configuration>> e : main.byMode.entrySet()) {
            Mode mode = e.getKey();
            PlannedCampaign pc = campaigns.get(c.measure().campaign());
            List<Configuration> ran = e.getValue().stream().filter(pc::runs).toList();
            if (ran.isEmpty()) {
                rows.add(modeRow(c, mode, study, pc.leftOut().getOrDefault(e.getValue().getFirst().id(), "not run in this reproduction")));
                continue;
            }
            String notYet = ran.stream().allMatch(x -> pc.notRunYet(x) != null) ? pc.notRunYet(ran.getFirst()) : null;
            if (notYet != null) {
                rows.add(modeRow(c, mode, study, notYet));
                continue;
            }
            switch (p.kind()) {
                case VALUE, BOUND -> rows.add(single(c, mode, study, Sample.of(ran.getFirst(), runs(pc, ran.getFirst()), c.measure().metric())));
                case RELATION, RATIO -> rows.add(pair(c, mode, study, Sample.of(ran.getFirst(), runs(pc, ran.getFirst()), c.measure().metric()),
                        versus, mode));
                case OPTIMUM, TREND -> rows.add(along(c, mode, study, pc, ran));
            }
        }
        return rows;
    }

    private ClaimRow modeRow(Claim c, Mode mode, String study, String why) {
        return new ClaimRow(c, mode.word(), study, "cannot measure: " + why, "–", Verdict.CANNOT_MEASURE, why, "");
    }

    private static List<Summary> runs(PlannedCampaign pc, Configuration c) {
        return pc.runs().getOrDefault(c.id(), List.of());
    }

    private ClaimRow single(Claim c, Mode mode, String study, Sample s) {
        if (s.n() == 0) {
            return modeRow(c, mode, study, noValue(s));
        }
        Published p = c.published();
        double m = s.mean();
        String conditions = Diagnostics.conditions(s);
        if (p.kind() == Kind.BOUND) {
            boolean ok = p.atLeast() ? m >= p.bound() - slack(c.agreement(), p.bound()) : m <= p.bound() + slack(c.agreement(), p.bound());
            String diff = signed(m - p.bound(), p.unit()) + " from the bound";
            return new ClaimRow(c, mode.word(), study, s.describe(), diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS,
                    ok ? "" : Diagnostics.explain(s), conditions);
        }
        double d = m - p.mean();
        boolean ok = agrees(c.agreement(), m, p.mean());
        String diff = signed(d, p.unit()) + (p.mean() != 0 ? " (" + signed(100 * d / Math.abs(p.mean()), "%") + ")" : "");
        return new ClaimRow(c, mode.word(), study, s.describe(), diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS,
                ok ? "" : "not " + c.agreement().describe(p.unit()) + ". " + Diagnostics.explain(s), conditions);
    }

    private ClaimRow pair(Claim c, Mode mode, String study, Sample a, Found versus, Mode preferred) {
        if (a.n() == 0) {
            return modeRow(c, mode, study, noValue(a));
        }
        Configuration vc = versus.pick(preferred);
        PlannedCampaign vpc = campaigns.get(c.versus().campaign());
        if (vc == null || !vpc.runs(vc)) {
            String why = vc == null ? "the comparison " + c.versus().implementation() + " has no configuration in " + preferred.word()
                    + " mode or in exactly one other mode" : "the comparison " + vc.name() + " (" + vc.mode().word() + "): "
                    + vpc.leftOut().getOrDefault(vc.id(), "not run in this reproduction");
            return modeRow(c, mode, study, why);
        }
        String comparisonNotYet = vpc.notRunYet(vc);
        if (comparisonNotYet != null) {
            return modeRow(c, mode, study, "the comparison " + vc.name() + " (" + vc.mode().word() + "): " + comparisonNotYet);
        }
        Sample b = Sample.of(vc, runs(vpc, vc), c.versus().metric());
        if (b.n() == 0) {
            return modeRow(c, mode, study, "the comparison: " + noValue(b));
        }
        Published p = c.published();
        String value = a.describe() + " vs " + b.describe();
        String conditions = Diagnostics.conditions(a);
        double ratio = a.mean() / b.mean();
        if (p.kind() == Kind.RELATION) {
            boolean ok = p.higher() ? ratio > 1 + RELATION_MARGIN : ratio < 1 - RELATION_MARGIN;
            String diff = "ratio " + Numbers.format(ratio) + (p.values().size() == 2 ? " (study " + Numbers.format(p.values().get(0) / p.values().get(1)) + ")" : "");
            return new ClaimRow(c, mode.word(), study, value, diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS,
                    ok ? "" : Diagnostics.explain(a) + (Diagnostics.explain(b).isEmpty() ? "" : "; comparison: " + Diagnostics.explain(b)),
                    conditions);
        }
        double studyRatio = p.mean() / p.reference();
        boolean ok = agrees(c.agreement(), ratio, studyRatio);
        String diff = "ratio " + Numbers.format(ratio) + " vs study " + Numbers.format(studyRatio);
        return new ClaimRow(c, mode.word(), study, value, diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS,
                ok ? "" : "not " + c.agreement().describe("") + ". " + Diagnostics.explain(a), conditions);
    }

    private ClaimRow along(Claim c, Mode mode, String study, PlannedCampaign pc, List<Configuration> ran) {
        String over = c.measure().over();
        List<String> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Configuration x : ran) {
            Sample s = Sample.of(x, runs(pc, x), c.measure().metric());
            if (s.n() == 0) {
                missing.add(x.sweepPoint().get(over) + ": " + noValue(s));
                continue;
            }
            samples.add(s);
            xs.add(x.sweepPoint().get(over));
            ys.add(s.mean());
        }
        if (xs.size() < 2) {
            return modeRow(c, mode, study, "fewer than two values of " + over + " were measured"
                    + (missing.isEmpty() ? "" : " (" + String.join("; ", missing) + ")"));
        }
        StringBuilder curve = new StringBuilder();
        for (int i = 0; i < xs.size(); i++) {
            curve.append(i == 0 ? "" : ", ").append(over).append('=').append(xs.get(i)).append(": ").append(Numbers.format(ys.get(i)));
        }
        Sample first = samples.getFirst();
        int n = samples.stream().mapToInt(Sample::n).min().orElse(0);
        String value = c.measure().metric() + " " + curve + " (n ≥ " + n + " each, " + mode.word() + ", " + c.measure().implementation() + ")";
        Published p = c.published();
        String conditions = Diagnostics.conditions(first);
        if (p.kind() == Kind.OPTIMUM) {
            int best = 0;
            for (int i = 1; i < ys.size(); i++) {
                if (p.higher() ? ys.get(i) > ys.get(best) : ys.get(i) < ys.get(best)) {
                    best = i;
                }
            }
            Double at = parseNumber(xs.get(best));
            boolean ok = at != null && at >= p.range().get(0) && at <= p.range().get(1);
            String diff = "optimum at " + over + "=" + xs.get(best);
            String why = ok ? "" : at == null ? over + " values are not numbers" : "at the optimum: " + Diagnostics.explain(samples.get(best));
            return new ClaimRow(c, mode.word(), study, value, diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS, why, conditions);
        }
        int against = 0;
        for (int i = 1; i < ys.size(); i++) {
            double step = ys.get(i) - ys.get(i - 1);
            double tolerance = 0.01 * Math.max(Math.abs(ys.get(i)), Math.abs(ys.get(i - 1)));
            if (p.higher() ? step < -tolerance : step > tolerance) {
                against++;
            }
        }
        boolean ok = against == 0;
        String diff = against == 0 ? "every step " + (p.higher() ? "rises" : "falls") + " (or stays within 1 %)"
                : against + " of " + (ys.size() - 1) + " steps go the other way";
        return new ClaimRow(c, mode.word(), study, value, diff, ok ? Verdict.REPRODUCED : Verdict.DIFFERS,
                ok ? "" : Diagnostics.explain(first), conditions);
    }

    // ---- finding configurations ------------------------------------------------------------------------------

    /** A measure's configurations by mode, or why there are none. */
    private record Found(Map<Mode, List<Configuration>> byMode, String why) {
        /** The configuration in {@code mode}, else the only one when all are in one other mode. */
        Configuration pick(Mode mode) {
            List<Configuration> same = byMode.get(mode);
            if (same != null && !same.isEmpty()) {
                return same.getFirst();
            }
            if (byMode.size() == 1) {
                List<Configuration> only = byMode.values().iterator().next();
                return only.size() == 1 ? only.getFirst() : null;
            }
            return null;
        }
    }

    private Found find(Measure m) {
        PlannedCampaign pc = campaigns.get(m.campaign());
        if (pc == null) {
            return new Found(Map.of(), "campaign " + m.campaign() + " was not planned");
        }
        if (pc.absent() != null) {
            return new Found(Map.of(), pc.absent());
        }
        List<Configuration> impl = pc.full().configurations().stream().filter(x -> x.implementation().equals(m.implementation())).toList();
        if (impl.isEmpty()) {
            return new Found(Map.of(), missingImplementation(pc, m.implementation()));
        }
        List<Configuration> match = matching(impl, m);
        Map<Mode, List<Configuration>> byMode = new LinkedHashMap<>();
        for (Configuration x : match) {
            if (m.modes().isEmpty() || m.modes().contains(x.mode().word())) {
                byMode.computeIfAbsent(x.mode(), k -> new ArrayList<>()).add(x);
            }
        }
        if (byMode.isEmpty()) {
            Set<String> modes = new LinkedHashSet<>();
            match.forEach(x -> modes.add(x.mode().word()));
            return new Found(Map.of(), m.implementation() + " runs in " + String.join(", ", modes) + " mode here, the claim asks for "
                    + String.join(" or ", m.modes()));
        }
        return new Found(byMode, null);
    }

    /**
     * Modes in which the measure's configuration was planned but cannot run on this host, with the planner's reason
     * (its skipped lines read "NAME [k=v ...] (MODE): skipped: WHY").
     */
    private Map<Mode, String> skippedHere(Measure m) {
        Map<Mode, String> out = new LinkedHashMap<>();
        PlannedCampaign pc = campaigns.get(m.campaign());
        if (pc == null) {
            return out;
        }
        for (String line : pc.full().skipped()) {
            int colon = line.indexOf(": skipped: ");
            if (colon < 0) {
                continue;
            }
            String what = line.substring(0, colon);
            List<String> words = List.of(what.split(" "));
            if (words.isEmpty() || !words.getFirst().equals(m.implementation())) {
                continue;
            }
            boolean pointMatches = m.point().entrySet().stream().allMatch(e -> words.contains(e.getKey() + "=" + e.getValue()));
            Mode mode = null;
            int open = what.lastIndexOf('(');
            if (open >= 0 && what.endsWith(")")) {
                mode = Mode.parse(what.substring(open + 1, what.length() - 1));
            }
            if (pointMatches && mode != null && (m.modes().isEmpty() || m.modes().contains(mode.word()))) {
                out.putIfAbsent(mode, line.substring(colon + ": skipped: ".length()));
            }
        }
        return out;
    }

    private static List<Configuration> matching(List<Configuration> configs, Measure m) {
        return configs.stream().filter(x -> m.point().entrySet().stream()
                .allMatch(e -> e.getValue().equals(x.sweepPoint().get(e.getKey())))).toList();
    }

    private String missingImplementation(PlannedCampaign pc, String impl) {
        for (String s : pc.full().skipped()) {
            if (s.startsWith(impl + " ") || s.startsWith(impl + ":") || s.equals(impl)) {
                return "not runnable on this host: " + s;
            }
        }
        boolean inScenario = pc.full().scenario().implementations().stream().map(Implementation::name).anyMatch(n -> n.value().equals(impl));
        if (inScenario) {
            return pc.scenarioName() + " plans no configuration of " + impl + " here";
        }
        String peer = peers.get(impl).isPresent() ? "" : "; this pacelab build has no " + impl + " peer ('pacelab peers' lists those it has)";
        return pc.scenarioName() + " has no implementation named " + impl + peer;
    }

    // ---- verdict arithmetic ----------------------------------------------------------------------------------

    static boolean agrees(Agreement a, double measured, double published) {
        if (!Double.isNaN(a.absolute())) {
            return Math.abs(measured - published) <= a.absolute() + 1e-12;
        }
        if (!Double.isNaN(a.relative())) {
            return Math.abs(measured - published) <= a.relative() * Math.abs(published) + 1e-12;
        }
        if (!Double.isNaN(a.factor())) {
            if (measured <= 0 || published <= 0) {
                return measured == published;
            }
            return Math.max(measured / published, published / measured) <= a.factor() + 1e-12;
        }
        return measured == published;
    }

    private static double slack(Agreement a, double bound) {
        if (!Double.isNaN(a.absolute())) {
            return a.absolute();
        }
        if (!Double.isNaN(a.relative())) {
            return a.relative() * Math.abs(bound);
        }
        return 0;
    }

    private static String noValue(Sample s) {
        if (s.runs().isEmpty()) {
            return s.configuration().name() + " has no finished run (see the campaign's attempts and FAILED.txt)";
        }
        return s.configuration().name() + ": " + (s.missing() == null ? "no run has a value" : s.missing());
    }

    private static String signed(double v, String unit) {
        String t = (v > 0 ? "+" : "") + Numbers.format(v);
        return unit == null || unit.isEmpty() ? t : unit.equals("%") ? t + " %" : t + " " + unit;
    }

    /** A sweep value as a number: "150", or a share "50%" as 50 (the unit the reference files use for ratios). */
    static Double parseNumber(String s) {
        try {
            String v = s.strip();
            return Double.parseDouble(v.endsWith("%") ? v.substring(0, v.length() - 1).strip() : v);
        } catch (NumberFormatException | NullPointerException e) {
            return null;
        }
    }

    /** The published value or finding in words. */
    static String studyText(Claim c) {
        Published p = c.published();
        String unit = p.unit().isEmpty() ? "" : " " + p.unit();
        return switch (p.kind()) {
            case VALUE -> Numbers.meanStd(p.mean(), p.std()) + unit + (p.n() > 0 ? " (n " + p.n() + ")" : "");
            case BOUND -> (p.atLeast() ? "≥ " : "≤ ") + Numbers.format(p.bound()) + unit;
            case RELATION -> (p.higher() ? "higher" : "lower") + " than the comparison"
                    + (p.values().size() == 2 ? " (" + Numbers.format(p.values().get(0)) + " vs " + Numbers.format(p.values().get(1)) + unit + ")" : "");
            case RATIO -> Numbers.meanStd(p.mean(), p.std()) + unit + " against " + Numbers.format(p.reference()) + unit
                    + " (ratio " + Numbers.format(p.mean() / p.reference()) + ")";
            case OPTIMUM -> (p.higher() ? "largest" : "smallest") + " at " + c.measure().over() + " in ["
                    + Numbers.format(p.range().get(0)) + ", " + Numbers.format(p.range().get(1)) + "]";
            case TREND -> (p.higher() ? "rises" : "falls") + " with " + c.measure().over();
        };
    }

    static String kindWord(Kind k) {
        return k.name().toLowerCase(Locale.ROOT);
    }
}
