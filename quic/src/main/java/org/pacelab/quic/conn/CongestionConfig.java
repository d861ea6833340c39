package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.pacing.PacingConfig;

/**
 * The congestion-control and pacing configuration of a connection, with the option names used on
 * {@code pacelab server}/{@code client}, in scenario files and here. It bundles the controller's configuration and
 * the pacer's, which know nothing of each other ({@code cc} imports no {@code pacing} class and {@code pacing} no
 * {@code cc} one); it lives with {@link ConnectionConfig}, the one layer that owns both, and recovery's
 * {@code CongestionSetup} hands each part to its own.
 *
 * @param controller the congestion controller: {@code --cc}, the slow start, {@code --rollback},
 *                   {@code --fast-convergence} ({@link ControllerConfig})
 * @param pacing     the pacer and its inputs ({@link PacingConfig})
 */
public record CongestionConfig(ControllerConfig controller, PacingConfig pacing) {

    /** Every option of this configuration, the controller's then the pacer's, in documentation order. */
    public static final List<String> OPTION_NAMES;

    static {
        List<String> names = new ArrayList<>(ControllerConfig.OPTION_NAMES);
        names.addAll(PacingConfig.OPTION_NAMES);
        OPTION_NAMES = List.copyOf(names);
    }

    public static final CongestionConfig DEFAULT = new CongestionConfig(ControllerConfig.DEFAULT, PacingConfig.DEFAULT);

    public CongestionConfig {
        if (controller == null || pacing == null) {
            throw new IllegalArgumentException("congestion configuration needs a controller configuration and pacing.");
        }
    }

    /**
     * Reads a configuration from option name to value (names with or without the leading {@code --}, as on
     * the command line or in a scenario file). Options not given keep their defaults; keys that are not
     * options of {@link #OPTION_NAMES} are ignored. An invalid value throws {@link IllegalArgumentException}
     * with one sentence naming the option and the valid values.
     */
    public static CongestionConfig fromOptions(Map<String, String> options) {
        return new CongestionConfig(ControllerConfig.fromOptions(options), PacingConfig.fromOptions(options));
    }

    /**
     * The options that reproduce this configuration with {@link #fromOptions}: the controller's (with
     * {@code --slow-start} and the selected rule's parameters only) and the pacer's.
     */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>(controller.toOptions());
        m.putAll(pacing.toOptions());
        return m;
    }
}
