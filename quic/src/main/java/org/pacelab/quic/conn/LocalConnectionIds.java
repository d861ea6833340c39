package org.pacelab.quic.conn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.NewConnectionIdFrame;

/**
 * The connection IDs this endpoint issued to its peer (RFC 9000 §5.1): the first one from the handshake,
 * more with NEW_CONNECTION_ID up to the peer's active_connection_id_limit, retired by RETIRE_CONNECTION_ID.
 */
public final class LocalConnectionIds {
    /** Listener the endpoint uses to route packets addressed to new IDs. */
    public interface Listener {
        void onIssued(byte[] cid);

        void onRetired(byte[] cid);
    }

    private final int length;
    private final RandomGenerator random;
    private final StatelessResetTokens resetTokens;
    private final Listener listener;
    private final Map<Long, byte[]> active = new LinkedHashMap<>();
    private final ArrayDeque<NewConnectionIdFrame> toSend = new ArrayDeque<>();
    private long nextSequence;

    public LocalConnectionIds(byte[] initial, RandomGenerator random, StatelessResetTokens resetTokens, Listener listener) {
        this.length = initial.length;
        this.random = random;
        this.resetTokens = resetTokens;
        this.listener = listener;
        active.put(nextSequence++, initial.clone());
    }

    public byte[] initial() {
        return active.values().iterator().next();
    }

    /** Issues IDs until {@code limit} are active (the peer's active_connection_id_limit, capped by us). */
    public void issueUpTo(int limit) {
        if (length == 0) {
            return;
        }
        while (active.size() < limit) {
            byte[] cid = new byte[length];
            random.nextBytes(cid);
            long seq = nextSequence++;
            active.put(seq, cid);
            listener.onIssued(cid);
            toSend.add(new NewConnectionIdFrame(seq, 0, cid, resetTokens.tokenFor(cid)));
        }
    }

    /** RETIRE_CONNECTION_ID from the peer (RFC 9000 §19.16). */
    public void onRetire(long sequence, byte[] packetDcid, int limit) throws QuicException {
        if (sequence >= nextSequence) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.RETIRE_CONNECTION_ID,
                    "retired connection ID " + sequence + " was never issued");
        }
        byte[] cid = active.get(sequence);
        if (cid == null) {
            return;
        }
        if (java.util.Arrays.equals(cid, packetDcid)) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.RETIRE_CONNECTION_ID,
                    "peer retired the connection ID its packet was sent to");
        }
        active.remove(sequence);
        listener.onRetired(cid);
        issueUpTo(limit);
    }

    /** NEW_CONNECTION_ID frames waiting to be sent. */
    public ArrayDeque<NewConnectionIdFrame> pending() { return toSend; }

    /** A NEW_CONNECTION_ID frame was lost: send it again if the ID is still active. */
    public void onLost(NewConnectionIdFrame f) {
        if (active.containsKey(f.sequenceNumber())) {
            toSend.add(f);
        }
    }

    public List<byte[]> all() {
        return new ArrayList<>(active.values());
    }
}
