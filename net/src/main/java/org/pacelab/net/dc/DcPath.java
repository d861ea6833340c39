package org.pacelab.net.dc;

/** The two downlink paths of a dual-connectivity link (the study's master and secondary base stations). */
public enum DcPath {
    A(0, "a"),
    B(1, "b");

    private final int index;
    private final String label;

    DcPath(int index, String label) {
        this.index = index;
        this.label = label;
    }

    /** The path index written to the event log and given to observers. */
    public int index() { return index; }

    public String label() { return label; }

    /** The path with this index, or null. */
    public static DcPath ofIndex(int index) {
        return index == 0 ? A : index == 1 ? B : null;
    }
}
