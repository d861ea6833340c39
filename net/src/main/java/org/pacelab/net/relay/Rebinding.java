package org.pacelab.net.relay;

/**
 * NAT rebinding as the QUIC Interop Runner's {@code rebind} scenario does it (quic-network-simulator
 * {@code sim/scenarios/rebind}: {@code --first-rebind}, {@code --rebind-freq}, {@code --rebind-addr}): at
 * {@code firstNs}, then every {@code everyNs} (0: once), every flow gets a new port toward the server (and, with
 * {@code address}, a new source address), so the server sees its client move. Packets the server still sends to an
 * old binding are dropped when they reach the client's side of the link, as by a NAT that forgot the mapping. Times
 * count from the first datagram a server sends (the runner's count from its simulator's start, before the endpoints;
 * here a slowly starting server would otherwise see its client move before it answered the first Initial).
 */
public record Rebinding(long firstNs, long everyNs, boolean address) {
    /** No rebinding. */
    public static final Rebinding NONE = new Rebinding(-1, 0, false);

    public Rebinding {
        if (everyNs < 0) throw new IllegalArgumentException("the rebinding period must not be negative");
    }

    public boolean active() { return firstNs >= 0; }

    /**
     * Reads {@code FIRST[/EVERY][,addr]}, e.g. {@code 1s/5s} (the runner's rebind-port) or {@code 1s/5s,addr}
     * (rebind-addr); {@code off} is no rebinding.
     */
    public static Rebinding parse(String where, String text) throws org.pacelab.net.spec.SpecException {
        String form = "write FIRST[/EVERY][,addr], e.g. 1s/5s (new ports at 1 s, then every 5 s) or 1s/5s,addr (new "
                + "addresses too)";
        String s = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (s.equals("off") || s.equals("none")) return NONE;
        boolean address = false;
        int comma = s.indexOf(',');
        if (comma >= 0) {
            String flag = s.substring(comma + 1);
            if (!flag.equals("addr")) {
                throw new org.pacelab.net.spec.SpecException(where + ": '" + flag + "' is not addr; " + form);
            }
            address = true;
            s = s.substring(0, comma);
        }
        int slash = s.indexOf('/');
        long first = org.pacelab.net.spec.Units.parseDuration(where, slash < 0 ? s : s.substring(0, slash));
        long every = slash < 0 ? 0 : org.pacelab.net.spec.Units.parseDuration(where, s.substring(slash + 1));
        if (slash >= 0 && every == 0) {
            throw new org.pacelab.net.spec.SpecException(where + ": the period of '" + text + "' is zero; " + form);
        }
        return new Rebinding(first, every, address);
    }

    /** How many rebindings are due {@code sinceOrigin} ns after the first datagram. */
    public long due(long sinceOrigin) {
        if (!active() || sinceOrigin < firstNs) return 0;
        return everyNs == 0 ? 1 : 1 + (sinceOrigin - firstNs) / everyNs;
    }
}
