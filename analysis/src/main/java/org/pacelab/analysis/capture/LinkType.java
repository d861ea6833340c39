package org.pacelab.analysis.capture;

/**
 * The link-layer header types pacelab decodes, by their LINKTYPE_ number
 * (tcpdump.org/linktypes.html; pcap and pcapng use the same registry).
 */
public enum LinkType {
    NULL(0, "BSD loopback (4-byte address family in the capturing host's byte order)"),
    ETHERNET(1, "Ethernet"),
    RAW(101, "raw IPv4/IPv6"),
    RAW_DLT12(12, "raw IP (DLT 12 on some BSDs)"),
    RAW_DLT14(14, "raw IP (DLT 14 on OpenBSD)"),
    LOOP(108, "OpenBSD loopback (4-byte address family, network byte order)"),
    LINUX_SLL(113, "Linux cooked capture v1 (SLL)"),
    IPV4(228, "raw IPv4"),
    IPV6(229, "raw IPv6"),
    LINUX_SLL2(276, "Linux cooked capture v2 (SLL2)");

    private final int number;
    private final String description;

    LinkType(int number, String description) {
        this.number = number;
        this.description = description;
    }

    public int number() {
        return number;
    }

    public String description() {
        return description;
    }

    /** The enum constant for a LINKTYPE_ number, or null when pacelab does not decode it. */
    public static LinkType of(int number) {
        for (LinkType t : values()) {
            if (t.number == number) {
                return t;
            }
        }
        return null;
    }

    /** The list of supported link types for error messages. */
    public static String supportedList() {
        StringBuilder sb = new StringBuilder();
        for (LinkType t : values()) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(t.number).append(" (").append(t.description).append(')');
        }
        return sb.toString();
    }
}
