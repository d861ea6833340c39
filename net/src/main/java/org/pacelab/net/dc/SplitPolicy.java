package org.pacelab.net.dc;

/** How the server-side splitter distributes a dual-connected flow's packets over the two paths. */
public sealed interface SplitPolicy {
    /** Consecutive batches of {@code packets} packets, alternating between the paths in {@code ratio}. */
    record Batches(int packets, SplitRatio ratio) implements SplitPolicy {
        public Batches {
            if (packets < 1) throw new IllegalArgumentException("batch size must be at least 1 packet");
        }
    }

    /** Every packet on both paths (the receiver keeps the first copy and discards the other). */
    record Duplicate() implements SplitPolicy { }

    /** Every packet on one path. */
    record Single(DcPath path) implements SplitPolicy { }

    /** A fresh splitter for one flow. */
    default Splitter newSplitter() {
        return switch (this) {
            case Batches b -> new BatchSplitter(b.packets(), b.ratio());
            case Duplicate d -> () -> PathChoice.BOTH;
            case Single s -> s.path() == DcPath.A ? () -> PathChoice.A : () -> PathChoice.B;
        };
    }

    /** The policy in the {@code --dc} grammar. */
    default String format() {
        return switch (this) {
            case Batches b -> "split=batch batch=" + b.packets() + " ratio=" + b.ratio();
            case Duplicate d -> "split=duplicate";
            case Single s -> "split=" + s.path().label();
        };
    }
}
