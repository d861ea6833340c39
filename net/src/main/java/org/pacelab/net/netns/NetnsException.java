package org.pacelab.net.netns;

/** Namespace mode cannot run; the message is one sentence saying why and what to do. */
public final class NetnsException extends Exception {
    public NetnsException(String message) { super(message); }
}
