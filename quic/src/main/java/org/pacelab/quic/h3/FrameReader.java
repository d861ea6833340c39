package org.pacelab.quic.h3;

import java.nio.ByteBuffer;

/**
 * Parses the frames of one HTTP/3 stream from data arriving in arbitrary pieces (RFC 9114 §7.1). DATA
 * payloads are handed on in place, without copying; other known frames are collected whole (up to a limit)
 * and decoded; unknown and reserved types are skipped (§9); HTTP/2-only types are refused (§7.2.8).
 */
final class FrameReader {
    /** What a stream does with its frames; each method may throw to end the connection. */
    interface Sink {
        /** A frame header was read; called for every frame, known or not, before any of its payload. */
        void frameStarted(long type, long length) throws H3Exception;

        /** Some payload of the current DATA frame: all remaining bytes of {@code payload}. */
        void dataPayload(ByteBuffer payload) throws H3Exception;

        /** A complete known frame other than DATA. */
        void frameComplete(H3Frame frame) throws H3Exception;
    }

    private enum State { TYPE, LENGTH, DATA, COLLECT, SKIP }

    private final int maxCollectedPayload;
    private final VarIntReader varInt = new VarIntReader();
    private State state = State.TYPE;
    private long type;
    private long remaining;
    private ByteBuffer collected;
    private long offset;
    private long frameStart;

    /** @param maxCollectedPayload the largest non-DATA payload accepted; larger is H3_EXCESSIVE_LOAD */
    FrameReader(int maxCollectedPayload) {
        this.maxCollectedPayload = maxCollectedPayload;
    }

    /** Consumes all remaining bytes of {@code in}. */
    void consume(ByteBuffer in, Sink sink) throws H3Exception {
        while (in.hasRemaining()) {
            switch (state) {
                case TYPE -> {
                    if (!varInt.inProgress()) {
                        frameStart = offset;
                    }
                    int start = in.position();
                    boolean done = varInt.read(in);
                    offset += in.position() - start;
                    if (done) {
                        type = varInt.value();
                        state = State.LENGTH;
                    }
                }
                case LENGTH -> {
                    int start = in.position();
                    boolean done = varInt.read(in);
                    offset += in.position() - start;
                    if (done) {
                        startPayload(varInt.value(), sink);
                    }
                }
                case DATA -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    int limit = in.limit();
                    int end = in.position() + n;
                    in.limit(end);
                    try {
                        sink.dataPayload(in);
                    } finally {
                        in.limit(limit);
                        in.position(end);
                    }
                    advance(n);
                }
                case COLLECT -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    int limit = in.limit();
                    in.limit(in.position() + n);
                    collected.put(in);
                    in.limit(limit);
                    advance(n);
                    if (state == State.TYPE) {
                        deliverCollected(sink);
                    }
                }
                case SKIP -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    in.position(in.position() + n);
                    advance(n);
                }
            }
        }
    }

    /** Whether the stream so far ends exactly after a complete frame (§7.1: a truncated last frame is an error). */
    boolean atFrameBoundary() {
        return state == State.TYPE && !varInt.inProgress();
    }

    /** The stream offset at which the current (or last) frame began. */
    long frameStart() {
        return frameStart;
    }

    /** Bytes consumed from the stream so far. */
    long offset() {
        return offset;
    }

    private void startPayload(long length, Sink sink) throws H3Exception {
        if (FrameType.isHttp2Only(type)) {
            throw new H3Exception(H3Error.H3_FRAME_UNEXPECTED, FrameType.name(type) + " at stream offset "
                    + frameStart + " is reserved in HTTP/3 (RFC 9114 §7.2.8)");
        }
        sink.frameStarted(type, length);
        remaining = length;
        if (type == FrameType.DATA) {
            state = State.DATA;
        } else if (FrameType.isKnown(type)) {
            if (length > maxCollectedPayload) {
                throw new H3Exception(H3Error.H3_EXCESSIVE_LOAD, FrameType.name(type) + " frame at stream offset "
                        + frameStart + " has a " + length + "-byte payload; at most " + maxCollectedPayload
                        + " are accepted");
            }
            collected = ByteBuffer.allocate((int) length);
            state = State.COLLECT;
            if (length == 0) {
                state = State.TYPE;
                deliverCollected(sink);
            }
        } else {
            state = length == 0 ? State.TYPE : State.SKIP;
        }
        if (length == 0 && state == State.DATA) {
            state = State.TYPE;
        }
    }

    private void advance(int n) {
        offset += n;
        remaining -= n;
        if (remaining == 0) {
            state = State.TYPE;
        }
    }

    private void deliverCollected(Sink sink) throws H3Exception {
        ByteBuffer payload = collected.flip();
        collected = null;
        sink.frameComplete(H3FrameCodec.decodePayload(type, payload));
    }
}
