package org.pacelab.net.dc;

/**
 * Sends a flow's packets in batches of a fixed number of packets, each batch wholly on one path, the batches
 * alternating between the paths in a ratio a:b. The order of batches is the smooth weighted round robin: before
 * each batch both paths gain their weight in credit, the path with more credit (path a on a tie) takes the batch
 * and pays a + b. Every cycle of a + b batches therefore carries exactly a batches on path a, spread as evenly as
 * possible (1:1 gives a b a b, 2:1 gives a b a, 9:1 gives five on a, one on b, four on a).
 */
public final class BatchSplitter implements Splitter {
    private final int batchPackets;
    private final long weightA, weightB;
    private long creditA, creditB;
    private int leftInBatch;
    private PathChoice current = PathChoice.A;

    public BatchSplitter(int batchPackets, SplitRatio ratio) {
        if (batchPackets < 1) throw new IllegalArgumentException("batch size must be at least 1 packet");
        this.batchPackets = batchPackets;
        this.weightA = ratio.a();
        this.weightB = ratio.b();
    }

    @Override
    public PathChoice next() {
        if (leftInBatch == 0) {
            creditA += weightA;
            creditB += weightB;
            if (creditA >= creditB) {
                current = PathChoice.A;
                creditA -= weightA + weightB;
            } else {
                current = PathChoice.B;
                creditB -= weightA + weightB;
            }
            leftInBatch = batchPackets;
        }
        leftInBatch--;
        return current;
    }
}
