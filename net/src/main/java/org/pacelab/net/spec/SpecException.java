package org.pacelab.net.spec;

/** A link spec, preset name or trace that cannot be used; the message is one sentence naming the field. */
public final class SpecException extends Exception {
    public SpecException(String message) { super(message); }
}
