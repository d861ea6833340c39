package org.pacelab.quic.conn;

import java.util.ArrayDeque;
import java.util.LinkedHashSet;

import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.HandshakeDoneFrame;
import org.pacelab.quic.frame.MaxDataFrame;
import org.pacelab.quic.frame.MaxStreamDataFrame;
import org.pacelab.quic.frame.MaxStreamsFrame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.PathResponseFrame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.frame.RetireConnectionIdFrame;
import org.pacelab.quic.frame.StopSendingFrame;

/**
 * The control frames waiting to be sent in 1-RTT packets: new ones the connection decided to send, and those
 * whose packet was lost (RFC 9000 §13.3). Stream and CRYPTO data are not here; their send buffers track what
 * is unsent or lost. Most entries name what to send rather than hold a frame: the value is taken when the
 * frame is written, so a MAX_DATA sent again carries the current limit, not the lost one, and an entry whose
 * stream is gone by then is skipped. quinn calls this {@code Retransmits}.
 */
final class PendingFrames {
    boolean handshakeDone;
    boolean maxData;
    final LinkedHashSet<Long> maxStreamData = new LinkedHashSet<>();
    boolean maxStreamsBidi;
    boolean maxStreamsUni;
    final ArrayDeque<NewConnectionIdFrame> newConnectionIds = new ArrayDeque<>();
    final ArrayDeque<Long> retireConnectionIds = new ArrayDeque<>();
    final LinkedHashSet<Long> resetStream = new LinkedHashSet<>();
    final LinkedHashSet<Long> stopSending = new LinkedHashSet<>();
    final ArrayDeque<PathResponseFrame> pathResponses = new ArrayDeque<>();
    // blocked signals (RFC 9000 §4.1, §4.6): sent once per limit, dropped when the limit rises first
    boolean dataBlocked;
    boolean streamsBlockedBidi;
    boolean streamsBlockedUni;
    final LinkedHashSet<Long> streamDataBlocked = new LinkedHashSet<>();
    /** Sequence number of a lost ACK_FREQUENCY frame (sent again if no newer one went out), or -1. */
    long lostAckFrequency = -1;

    /**
     * A packet that carried {@code f} was lost, or is probed again: the frame waits to be sent again. Frames
     * that are not repeated as such (PADDING, PING, ACK, PATH_RESPONSE, IMMEDIATE_ACK, the blocked signals) are
     * ignored.
     */
    void requeue(Frame f) {
        switch (f) {
            case HandshakeDoneFrame ignored -> handshakeDone = true;
            case MaxDataFrame ignored -> maxData = true;
            case MaxStreamDataFrame m -> maxStreamData.add(m.streamId());
            case MaxStreamsFrame m -> maxStreams(m.bidirectional());
            case NewConnectionIdFrame n -> newConnectionIds.add(n);
            case RetireConnectionIdFrame r -> retireConnectionIds.add(r.sequenceNumber());
            case ResetStreamFrame r -> resetStream.add(r.streamId());
            case StopSendingFrame s -> stopSending.add(s.streamId());
            case AckFrequencyFrame a -> lostAckFrequency = Math.max(lostAckFrequency, a.sequenceNumber());
            default -> { }
        }
    }

    void maxStreams(boolean bidirectional) {
        if (bidirectional) {
            maxStreamsBidi = true;
        } else {
            maxStreamsUni = true;
        }
    }

    void streamsBlocked(boolean bidirectional, boolean pending) {
        if (bidirectional) {
            streamsBlockedBidi = pending;
        } else {
            streamsBlockedUni = pending;
        }
    }

    /** Whether anything waits (an entry may still turn out moot when written). */
    boolean isEmpty() {
        return !handshakeDone && !maxData && maxStreamData.isEmpty() && !maxStreamsBidi && !maxStreamsUni
                && newConnectionIds.isEmpty() && retireConnectionIds.isEmpty() && resetStream.isEmpty()
                && stopSending.isEmpty() && pathResponses.isEmpty() && !dataBlocked && !streamsBlockedBidi
                && !streamsBlockedUni && streamDataBlocked.isEmpty() && lostAckFrequency < 0;
    }

    /** Forgets what concerned a stream that is gone. */
    void forgetStream(long id) {
        maxStreamData.remove(id);
        resetStream.remove(id);
        stopSending.remove(id);
        streamDataBlocked.remove(id);
    }

}
