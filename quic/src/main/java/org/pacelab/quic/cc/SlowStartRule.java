package org.pacelab.quic.cc;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rules {@code --slow-start} selects for leaving the initial slow start of {@link NewRenoController} and
 * {@link CubicController} before a loss does; BBR takes standard (its own Startup) and onset ({@link SlowStartConfig#BBR_RULES}).
 */
public enum SlowStartRule {
    /** No early exit: slow start ends with the first congestion event (RFC 9002 §7.3.1, RFC 9438 §4.10). */
    STANDARD("standard"),
    /** {@link HyStartPlusPlus}, RFC 9406: a round's minimum RTT, Conservative Slow Start. */
    HYSTART_PLUS_PLUS("hystart++"),
    /** {@link HyStart}: Linux's {@code tcp_cubic.c} HyStart, ACK train and delay. */
    HYSTART("hystart"),
    /** {@link Search}: draft-chung-ccwg-search, delivered bytes against bytes sent one RTT earlier. */
    SEARCH("search"),
    /** {@link QueueOnset}: the RTT rising above its minimum for a run of consecutive ACKs, within the round. */
    QUEUE_ONSET("onset"),
    /** {@link OnsetBdp}: the queue's onset, cut to the busy ACK rate × the minimum RTT, left at a second onset within 3 rounds. */
    ONSET_BDP("onset-bdp"),
    /**
     * {@link OnsetBdp} keeping a standing queue: holds the window at a first onset below half of it, leaves with the
     * estimate plus half the largest queue seen, and paces at cwnd / the round's least RTT after slow start.
     */
    ONSET_BDP_QUEUE("onset-bdp-queue");

    private final String optionValue;

    SlowStartRule(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() { return optionValue; }

    /** The valid {@code --slow-start} values, comma-separated. */
    public static String validValues() {
        return Arrays.stream(values()).map(SlowStartRule::optionValue).collect(Collectors.joining(", "));
    }

    /** Parses a {@code --slow-start} value; the error sentence lists the valid values. */
    public static SlowStartRule parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (SlowStartRule r : values()) {
            if (r.optionValue.equals(v)) {
                return r;
            }
        }
        throw new IllegalArgumentException(SlowStartConfig.SLOW_START + ": '" + value + "' is not a slow-start rule; valid "
                + "values are " + validValues() + ".");
    }
}
