package org.pacelab.lab.peer;

import java.util.Locale;

/** The two ends of a transfer: the server sends the file, the client downloads it. */
public enum Role {
    SERVER, CLIENT;

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
