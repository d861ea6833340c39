package org.pacelab.net.dc;

/** Where the splitter sends one packet: path a, path b, or a copy on each (duplication). */
public enum PathChoice {
    A, B, BOTH;

    /** Whether the packet (or one of its copies) goes on {@code path}. */
    public boolean uses(DcPath path) {
        return this == BOTH || (path == DcPath.A ? this == A : this == B);
    }

    public int copies() { return this == BOTH ? 2 : 1; }
}
