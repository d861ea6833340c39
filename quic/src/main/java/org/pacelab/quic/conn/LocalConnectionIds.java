package org.pacelab.quic.conn;

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

    /**
     * Issues IDs until {@code limit} are active (the peer's active_connection_id_limit, capped by us); returns
     * the NEW_CONNECTION_ID frames to send.
     */
    public List<NewConnectionIdFrame> issueUpTo(int limit) {
        List<NewConnectionIdFrame> issued = new ArrayList<>();
        if (length == 0) {
            return issued;
        }
        while (active.size() < limit) {
            byte[] cid = new byte[length];
            random.nextBytes(cid);
            long seq = nextSequence++;
            active.put(seq, cid);
            listener.onIssued(cid);
            issued.add(new NewConnectionIdFrame(seq, 0, cid, resetTokens.tokenFor(cid)));
        }
        return issued;
    }

    /**
     * A server's connection ID of sequence number 1 for its preferred_address transport parameter (RFC 9000 §5.1.1,
     * §18.2), issued before any NEW_CONNECTION_ID (it counts toward the peer's active_connection_id_limit). Returns it
     * as the frame that would have announced it: its sequence number, ID and stateless reset token.
     */
    public NewConnectionIdFrame issueForPreferredAddress() {
        if (nextSequence != 1 || length == 0) {
            throw new IllegalStateException("the preferred address's connection ID is the first issued after the handshake's");
        }
        byte[] cid = new byte[length];
        random.nextBytes(cid);
        long seq = nextSequence++;
        active.put(seq, cid);
        listener.onIssued(cid);
        return new NewConnectionIdFrame(seq, 0, cid, resetTokens.tokenFor(cid));
    }

    /** RETIRE_CONNECTION_ID from the peer (RFC 9000 §19.16); returns the NEW_CONNECTION_ID frames to send. */
    public List<NewConnectionIdFrame> onRetire(long sequence, byte[] packetDcid, int limit) throws QuicException {
        if (sequence >= nextSequence) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.RETIRE_CONNECTION_ID,
                    "retired connection ID " + sequence + " was never issued");
        }
        byte[] cid = active.get(sequence);
        if (cid == null) {
            return List.of();
        }
        if (java.util.Arrays.equals(cid, packetDcid)) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.RETIRE_CONNECTION_ID,
                    "peer retired the connection ID its packet was sent to");
        }
        active.remove(sequence);
        listener.onRetired(cid);
        return issueUpTo(limit);
    }

    /** Whether the ID with this sequence number is still active (a lost NEW_CONNECTION_ID for it is sent again). */
    public boolean isActive(long sequence) {
        return active.containsKey(sequence);
    }

    public List<byte[]> all() {
        return new ArrayList<>(active.values());
    }
}
