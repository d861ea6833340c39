package org.pacelab.quic.stream;

/** Stream ID arithmetic, RFC 9000 §2.1. */
public final class StreamId {
    private StreamId() {}

    public static boolean isClientInitiated(long id) { return (id & 1) == 0; }

    public static boolean isBidirectional(long id) { return (id & 2) == 0; }

    /** The stream's ordinal among streams of its type (initiator and direction). */
    public static long index(long id) { return id >>> 2; }

    public static long of(long index, boolean clientInitiated, boolean bidirectional) {
        return (index << 2) | (clientInitiated ? 0 : 1) | (bidirectional ? 0 : 2);
    }

    public static boolean isLocal(long id, boolean weAreClient) {
        return isClientInitiated(id) == weAreClient;
    }

    /** Whether this endpoint may send on the stream. */
    public static boolean canSend(long id, boolean weAreClient) {
        return isBidirectional(id) || isLocal(id, weAreClient);
    }

    /** Whether this endpoint may receive on the stream. */
    public static boolean canReceive(long id, boolean weAreClient) {
        return isBidirectional(id) || !isLocal(id, weAreClient);
    }
}
