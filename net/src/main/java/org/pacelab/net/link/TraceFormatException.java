package org.pacelab.net.link;

/** A trace file that cannot be used; the message names the file and line. */
public final class TraceFormatException extends Exception {
    public TraceFormatException(String message) { super(message); }
}
