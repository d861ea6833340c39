package org.pacelab.quic.cc;

/** The states of the BBRv3 state machine (draft-ietf-ccwg-bbr §"State Transition Diagram"). */
public enum BbrState {
    STARTUP("startup"),
    DRAIN("drain"),
    PROBE_BW_DOWN("probe_bw_down"),
    PROBE_BW_CRUISE("probe_bw_cruise"),
    PROBE_BW_REFILL("probe_bw_refill"),
    PROBE_BW_UP("probe_bw_up"),
    PROBE_RTT("probe_rtt");

    private final String qlogName;

    BbrState(String qlogName) {
        this.qlogName = qlogName;
    }

    /** The name reported as the congestion state in qlog. */
    public String qlogName() { return qlogName; }

    /** IsInAProbeBWState(). */
    public boolean isProbeBw() {
        return this == PROBE_BW_DOWN || this == PROBE_BW_CRUISE || this == PROBE_BW_REFILL || this == PROBE_BW_UP;
    }
}
