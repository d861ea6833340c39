package org.pacelab.quic.frame;

/** The ECN counts of an ACK frame of type 0x03 (RFC 9000 §19.3.2). */
public record EcnCounts(long ect0, long ect1, long ce) {
}
