package org.pacelab.lab.interop;

/**
 * The outcome of one test case for one server and client, with the reason in one sentence (always given for a
 * failure or an unsupported case; for a success it may say what was measured).
 */
public record CheckResult(Outcome outcome, String reason) {
    /** The runner's three results. */
    public enum Outcome {
        SUCCEEDED("succeeded"), FAILED("failed"), UNSUPPORTED("unsupported");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public static CheckResult succeeded(String what) {
        return new CheckResult(Outcome.SUCCEEDED, what);
    }

    public static CheckResult failed(String why) {
        return new CheckResult(Outcome.FAILED, why);
    }

    public static CheckResult unsupported(String why) {
        return new CheckResult(Outcome.UNSUPPORTED, why);
    }

    public boolean ok() {
        return outcome == Outcome.SUCCEEDED;
    }
}
