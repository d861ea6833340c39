package org.pacelab.net.sys;

import java.io.IOException;

/** A failed system call; {@link #errno()} tells which error. The message is one sentence. */
public final class SysException extends IOException {
    private final int errno;

    public SysException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() { return errno; }
}
