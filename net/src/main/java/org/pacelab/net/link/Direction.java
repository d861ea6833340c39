package org.pacelab.net.link;

/** The two directions of a link between a server and a client. */
public enum Direction {
    /** Server to client: the bottleneck direction in the pacing studies. */
    DOWN(0),
    /** Client to server. */
    UP(1);

    private final int index;

    Direction(int index) { this.index = index; }

    public int index() { return index; }

    public static Direction ofIndex(int i) {
        return i == 0 ? DOWN : i == 1 ? UP : null;
    }

    public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
}
