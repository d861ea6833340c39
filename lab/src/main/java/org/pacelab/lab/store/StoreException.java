package org.pacelab.lab.store;

/** The results store cannot be opened, read or written; the message names the file and the cause. */
public final class StoreException extends Exception {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
