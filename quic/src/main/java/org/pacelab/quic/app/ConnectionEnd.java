package org.pacelab.quic.app;

import java.util.function.LongFunction;

/**
 * The sentence an application gives for why its connection ended, from what {@link ApplicationHandler#onClosed}
 * receives: the application error (named by the application protocol) or the transport error code (RFC 9000 §20.1,
 * in hex), then the peer's reason phrase in parentheses when there is one.
 */
public final class ConnectionEnd {
    private ConnectionEnd() {}

    /**
     * @param applicationError names an application error code, e.g. {@code code -> "application error " + name}
     */
    public static String describe(long errorCode, boolean application, String reason,
            LongFunction<String> applicationError) {
        return (application ? applicationError.apply(errorCode) : "transport error 0x" + Long.toHexString(errorCode))
                + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")");
    }
}
