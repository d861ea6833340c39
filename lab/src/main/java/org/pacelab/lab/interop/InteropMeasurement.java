package org.pacelab.lab.interop;

/**
 * One measurement of the QUIC Interop Runner ({@code testcases_quic.py}, {@code MEASUREMENTS}): a case repeated
 * {@code repetitions} times between the same server and client, each repetition a fresh pair through the emulator,
 * whose value per repetition is averaged (the runner's {@code _run_measurement}: mean and sample standard deviation;
 * the first repetition that does not succeed ends the measurement with its result).
 *
 * @param repetition  the case each repetition runs; its name and letters are the measurement's, its check gives the
 *                    repetition's value ({@link Goodput})
 * @param unit        the unit of the values, as the runner prints it
 * @param repetitions how many repetitions (the runner's 5 for goodput)
 */
public record InteropMeasurement(InteropCase repetition, String unit, int repetitions) {
    public InteropMeasurement {
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions: must be at least 1, got " + repetitions);
        }
    }

    public String name() {
        return repetition.name();
    }

    public String abbreviation() {
        return repetition.abbreviation();
    }

    public String description() {
        return repetition.description();
    }

    /** The same measurement with another repetition count (e.g. fewer for a quick check; not comparable to the runner's). */
    public InteropMeasurement withRepetitions(int n) {
        return new InteropMeasurement(repetition, unit, n);
    }
}
