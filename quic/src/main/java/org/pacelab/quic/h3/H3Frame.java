package org.pacelab.quic.h3;

import java.util.List;

/**
 * The HTTP/3 frames this implementation builds or interprets as a whole (RFC 9114 §7.2). DATA frames are
 * not materialised: their payload streams through {@link FrameReader} and {@link H3FrameCodec#writeHeader}.
 */
public sealed interface H3Frame {
    long type();

    /** HEADERS (§7.2.2): an encoded field section (RFC 9204 §4.5). */
    record Headers(byte[] fieldSection) implements H3Frame {
        @Override
        public long type() {
            return FrameType.HEADERS;
        }
    }

    /** CANCEL_PUSH (§7.2.3). */
    record CancelPush(long pushId) implements H3Frame {
        @Override
        public long type() {
            return FrameType.CANCEL_PUSH;
        }
    }

    /** SETTINGS (§7.2.4): identifier/value pairs in the order sent. */
    record Settings(List<Setting> settings) implements H3Frame {
        public Settings {
            settings = List.copyOf(settings);
        }

        @Override
        public long type() {
            return FrameType.SETTINGS;
        }

        /** The value of a setting, or {@code otherwise} when absent. */
        public long valueOf(long id, long otherwise) {
            for (Setting s : settings) {
                if (s.id() == id) {
                    return s.value();
                }
            }
            return otherwise;
        }
    }

    /** One SETTINGS parameter (§7.2.4.1). */
    record Setting(long id, long value) {
    }

    /** PUSH_PROMISE (§7.2.5). */
    record PushPromise(long pushId, byte[] fieldSection) implements H3Frame {
        @Override
        public long type() {
            return FrameType.PUSH_PROMISE;
        }
    }

    /** GOAWAY (§7.2.6): a stream ID from a server, a push ID from a client. */
    record Goaway(long id) implements H3Frame {
        @Override
        public long type() {
            return FrameType.GOAWAY;
        }
    }

    /** MAX_PUSH_ID (§7.2.7). */
    record MaxPushId(long pushId) implements H3Frame {
        @Override
        public long type() {
            return FrameType.MAX_PUSH_ID;
        }
    }
}
