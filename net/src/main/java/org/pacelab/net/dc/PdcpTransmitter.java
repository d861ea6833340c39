package org.pacelab.net.dc;

/**
 * The sequence numbering of the transmitting PDCP entity (3GPP TS 38.323 §5.2.1): each SDU gets the COUNT value
 * TX_NEXT, its PDU carries the SN = TX_NEXT modulo 2^[pdcp-SN-Size], and TX_NEXT is incremented. The header is
 * conceptual: the emulator keeps the SN beside the packet instead of adding bytes to it.
 */
public final class PdcpTransmitter {
    private final long snMask;
    private long txNext;

    public PdcpTransmitter(int snBits) { this(snBits, 0); }

    /** Starting at COUNT {@code firstCount} (TS 38.323 §7.1: 0, unless state is continued). */
    public PdcpTransmitter(int snBits, long firstCount) {
        this.snMask = (1L << snBits) - 1;
        this.txNext = firstCount;
    }

    /** Associates the next COUNT with an SDU and returns it. */
    public long nextCount() { return txNext++; }

    /** The SN the PDU of {@code count} carries. */
    public long sn(long count) { return count & snMask; }
}
