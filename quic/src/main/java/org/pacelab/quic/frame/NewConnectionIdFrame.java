package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/**
 * NEW_CONNECTION_ID (RFC 9000 §19.15): a connection ID of 1..20 bytes, its sequence number, the
 * Retire Prior To value (never above the sequence number) and a 16-byte stateless reset token.
 * Arrays not copied.
 */
public record NewConnectionIdFrame(long sequenceNumber, long retirePriorTo, byte[] connectionId, byte[] statelessResetToken)
        implements Frame {
    public NewConnectionIdFrame {
        Objects.requireNonNull(connectionId, "connectionId");
        Objects.requireNonNull(statelessResetToken, "statelessResetToken");
        if (connectionId.length < 1 || connectionId.length > 20) {
            throw new IllegalArgumentException("connection ID length must be 1..20, not " + connectionId.length);
        }
        if (statelessResetToken.length != 16) {
            throw new IllegalArgumentException("stateless reset token must be 16 bytes, not " + statelessResetToken.length);
        }
        if (retirePriorTo > sequenceNumber) {
            throw new IllegalArgumentException("retirePriorTo " + retirePriorTo + " exceeds sequenceNumber " + sequenceNumber);
        }
    }

    @Override
    public long type() { return FrameType.NEW_CONNECTION_ID; }

    @Override
    public boolean equals(Object o) {
        return o instanceof NewConnectionIdFrame n && n.sequenceNumber == sequenceNumber && n.retirePriorTo == retirePriorTo
                && Arrays.equals(n.connectionId, connectionId) && Arrays.equals(n.statelessResetToken, statelessResetToken);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sequenceNumber, retirePriorTo, Arrays.hashCode(connectionId), Arrays.hashCode(statelessResetToken));
    }

    @Override
    public String toString() {
        return "NewConnectionIdFrame[seq=" + sequenceNumber + ", retirePriorTo=" + retirePriorTo + ", cid="
                + Bytes.hex(connectionId) + ", resetToken=" + Bytes.hex(statelessResetToken) + "]";
    }
}
