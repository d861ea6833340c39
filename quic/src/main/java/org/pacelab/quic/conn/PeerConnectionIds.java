package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.NewConnectionIdFrame;

/**
 * The connection IDs the peer issued to us (RFC 9000 §5.1.1): which one we send to, their stateless reset
 * tokens (to recognise a stateless reset, §10.3.1), and retirement.
 */
public final class PeerConnectionIds {
    private record Entry(byte[] cid, byte[] resetToken) {}

    private final int activeLimit;
    private final TreeMap<Long, Entry> ids = new TreeMap<>();
    private long current;
    private long retirePriorTo;
    /** Sequence numbers we retired ourselves above retirePriorTo: a retransmitted NEW_CONNECTION_ID does not bring them back. */
    private final java.util.Set<Long> retired = new java.util.HashSet<>();

    /** @param activeLimit our active_connection_id_limit */
    public PeerConnectionIds(byte[] initial, int activeLimit) {
        this.activeLimit = activeLimit;
        ids.put(0L, new Entry(initial.clone(), null));
    }

    /** The ID to put in the Destination Connection ID of packets we send. */
    public byte[] current() {
        return ids.get(current).cid();
    }

    /** Replaces the initial ID (the client learns the server's chosen ID from its first Initial, §7.2). */
    public void replaceInitial(byte[] cid) {
        ids.put(0L, new Entry(cid.clone(), ids.get(0L).resetToken()));
    }

    /** Sets the stateless reset token of the handshake's ID (from the server's transport parameters). */
    public void setInitialResetToken(byte[] token) {
        Entry e = ids.get(0L);
        if (e != null) {
            ids.put(0L, new Entry(e.cid(), token.clone()));
        }
    }

    /**
     * The connection ID of sequence number 1 and its stateless reset token from a server's preferred_address (RFC 9000
     * §5.1.1): the ID a client probes the preferred address with, and whose reset token it recognises from then on.
     */
    public void addPreferredAddressId(byte[] cid, byte[] token) {
        ids.putIfAbsent(1L, new Entry(cid.clone(), token.clone()));
    }

    /** The connection ID of sequence number {@code sequence}, or null when it is not (or no longer) known. */
    public byte[] get(long sequence) {
        Entry e = ids.get(sequence);
        return e == null ? null : e.cid();
    }

    /** The sequence number of an ID the peer gave us that is newer than the one we send to, or -1 when there is none. */
    public long nextUnused() {
        Long next = ids.higherKey(current);
        return next == null ? -1 : next;
    }

    /**
     * Sends to the ID of {@code sequence} from now on (a client that moved to the preferred address, RFC 9000 §9.6.1,
     * §9.5); returns the sequence numbers of the IDs used before, to retire with RETIRE_CONNECTION_ID (§5.1.2).
     */
    public List<Long> switchTo(long sequence) {
        if (!ids.containsKey(sequence) || sequence == current) {
            return List.of();
        }
        List<Long> retired = new ArrayList<>();
        for (Long s : new ArrayList<>(ids.headMap(sequence).keySet())) {
            retired.add(s);
            ids.remove(s);
        }
        this.retired.addAll(retired);
        current = sequence;
        return retired;
    }

    /**
     * Stops using the ID of {@code sequence}, one a path that failed validation was probed with (RFC 9000 §9.5: an ID
     * is not used on more than one path; ngtcp2's {@code conn_on_path_validation_failed} retires it too); returns
     * whether to send RETIRE_CONNECTION_ID for it (§5.1.2), false when it is the current one or not known.
     */
    public boolean retire(long sequence) {
        if (sequence == current || !ids.containsKey(sequence)) {
            return false;
        }
        ids.remove(sequence);
        retired.add(sequence);
        return true;
    }

    /**
     * NEW_CONNECTION_ID from the peer (RFC 9000 §19.15); returns the sequence numbers to retire with
     * RETIRE_CONNECTION_ID.
     */
    public List<Long> onNewConnectionId(NewConnectionIdFrame f, boolean peerUsesZeroLength) throws QuicException {
        if (peerUsesZeroLength) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.NEW_CONNECTION_ID,
                    "NEW_CONNECTION_ID from a peer using zero-length connection IDs");
        }
        Entry existing = ids.get(f.sequenceNumber());
        if (existing != null) {
            if (!Arrays.equals(existing.cid(), f.connectionId())
                    || existing.resetToken() != null && !Arrays.equals(existing.resetToken(), f.statelessResetToken())) {
                throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.NEW_CONNECTION_ID,
                        "connection ID sequence " + f.sequenceNumber() + " reused with different contents");
            }
            return List.of();
        }
        if (f.sequenceNumber() < retirePriorTo) {
            return List.of(f.sequenceNumber());
        }
        if (retired.contains(f.sequenceNumber())) {
            return List.of(); // a retransmission of one we retired; its RETIRE_CONNECTION_ID is on its way
        }
        List<Long> retire = new ArrayList<>();
        ids.put(f.sequenceNumber(), new Entry(f.connectionId().clone(), f.statelessResetToken().clone()));
        if (f.retirePriorTo() > retirePriorTo) {
            retirePriorTo = f.retirePriorTo();
            for (Map.Entry<Long, Entry> e : ids.headMap(retirePriorTo).entrySet()) {
                retire.add(e.getKey());
            }
            ids.headMap(retirePriorTo).clear();
            if (current < retirePriorTo) {
                current = ids.firstKey();
            }
        }
        if (ids.size() > activeLimit) {
            throw new QuicException(TransportError.CONNECTION_ID_LIMIT_ERROR, FrameType.NEW_CONNECTION_ID,
                    "peer exceeded our active_connection_id_limit of " + activeLimit);
        }
        return retire;
    }

    /** Whether {@code token} is the stateless reset token of any ID the peer gave us. */
    public boolean isStatelessResetToken(byte[] token) {
        for (Entry e : ids.values()) {
            if (e.resetToken() != null && java.security.MessageDigest.isEqual(e.resetToken(), token)) {
                return true;
            }
        }
        return false;
    }
}
