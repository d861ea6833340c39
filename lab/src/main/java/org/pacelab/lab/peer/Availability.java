package org.pacelab.lab.peer;

import java.util.List;

/**
 * Whether a peer can run here; when not, one sentence saying why and the Debian packages that would provide it
 * ({@code pacelab peers install} installs those).
 */
public record Availability(boolean usable, String reason, List<String> debianPackages) {
    public static final Availability USABLE = new Availability(true, "", List.of());

    public static Availability missing(String reason, List<String> debianPackages) {
        return new Availability(false, reason, List.copyOf(debianPackages));
    }

    public static Availability missing(String reason) {
        return new Availability(false, reason, List.of());
    }
}
