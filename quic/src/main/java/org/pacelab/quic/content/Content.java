package org.pacelab.quic.content;

/** The outcome of looking up a request target in a {@link ContentSource}. */
public sealed interface Content {

    /** The target names a body; the caller must {@link Body#close() close} it. */
    record Found(Body body) implements Content {
    }

    /**
     * The target is not served.
     *
     * @param status the HTTP status that says why: 400 (malformed target), 404 (no such resource) or 500
     *               (the resource exists but cannot be read)
     * @param reason one sentence for the peer and the log, naming the target
     */
    record Refused(int status, String reason) implements Content {
        public Refused {
            if (status != 400 && status != 404 && status != 500) {
                throw new IllegalArgumentException("refusal status must be 400, 404 or 500, not " + status);
            }
        }
    }
}
