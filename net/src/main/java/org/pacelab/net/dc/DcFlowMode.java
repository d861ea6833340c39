package org.pacelab.net.dc;

import java.util.Locale;
import org.pacelab.net.spec.SpecException;

/**
 * How one flow uses a dual-connectivity downlink: split (or duplicated) over both paths as the {@code --dc} spec
 * says, or on one path only (the study's single-path competitors).
 */
public enum DcFlowMode {
    DUAL("dc"),
    PATH_A("a"),
    PATH_B("b");

    private final String label;

    DcFlowMode(String label) { this.label = label; }

    public String label() { return label; }

    /** Reads dc, a or b; {@code where} names the option for errors. */
    public static DcFlowMode parse(String where, String text) throws SpecException {
        return switch (text == null ? "" : text.strip().toLowerCase(Locale.ROOT)) {
            case "dc", "dual", "split" -> DUAL;
            case "a" -> PATH_A;
            case "b" -> PATH_B;
            default -> throw new SpecException(where + ": '" + text + "' is not a flow mode; use dc (both paths as the --dc "
                    + "spec says), a or b (that path only)");
        };
    }
}
