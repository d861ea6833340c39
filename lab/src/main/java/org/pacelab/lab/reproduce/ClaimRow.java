package org.pacelab.lab.reproduce;

import org.pacelab.lab.reproduce.StudyReference.Claim;

/**
 * One row of a reproduction report: a claim as measured in one mode (or why it could not be measured).
 *
 * @param mode       the mode the value comes from ("relay", "netns", "sim"), or "–" when nothing was measured
 * @param study      the published value or finding, in words
 * @param pacelab    pacelab's value: mean ± std with n, mode and configuration; or "cannot measure"
 * @param difference pacelab's minus the study's (with the relative difference), the ratio, or "–"
 * @param reason     for "differs": what was measured that explains it; for "cannot measure": why; may be empty
 * @param conditions the measurement's conditions: host load, emulator lateness (empty for sim runs)
 */
public record ClaimRow(Claim claim, String mode, String study, String pacelab, String difference, Verdict verdict,
                       String reason, String conditions) {
    /** The verdict of one row. */
    public enum Verdict {
        REPRODUCED("reproduced"),
        DIFFERS("differs"),
        CANNOT_MEASURE("cannot measure");

        private final String word;

        Verdict(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    static ClaimRow cannotMeasure(Claim claim, String study, String why) {
        return new ClaimRow(claim, "–", study, "cannot measure: " + why, "–", Verdict.CANNOT_MEASURE, why, "");
    }
}
