package org.pacelab.net.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

/** Libc's handles, bound at their first call or by prepare: they work either way; a missing function is named. */
class LibcTest {
    private static final int EBADF = 9;

    @Test
    void aFunctionBoundAtItsFirstCallWorksAndCapturesErrno() {
        int fd = Libc.socket(Libc.AF_INET, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC, 0);
        assertTrue(fd >= 0, "socket: " + Libc.strerror(Libc.errno()));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(16, 4);
            MemorySegment len = a.allocate(ValueLayout.JAVA_INT);
            len.set(ValueLayout.JAVA_INT, 0, 16);
            assertEquals(0, Libc.getsockname(fd, name, len));
            // an unbound IPv4 socket's name: family AF_INET, port 0
            assertEquals(Libc.AF_INET, name.get(ValueLayout.JAVA_SHORT, 0));
            assertEquals(0, name.get(ValueLayout.JAVA_SHORT, 2));
        }
        assertEquals(0, Libc.close(fd));
        assertEquals(-1, Libc.close(fd));
        assertEquals(EBADF, Libc.errno());
        assertEquals("Bad file descriptor", Libc.strerror(EBADF));
    }

    @Test
    void everyFunctionCanBePreparedAndStillWorksAfterwards() {
        Libc.prepare(Libc.Function.values());
        assertEquals(-1, Libc.close(-1));
        assertEquals(EBADF, Libc.errno());
        assertTrue(Libc.clockGettime(Libc.CLOCK_MONOTONIC) > 0);
    }

    @Test
    void aMissingFunctionIsAnErrorNamingIt() {
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> Libc.bind("pacelab_no_such_function", FunctionDescriptor.ofVoid()));
        assertEquals("libc has no function 'pacelab_no_such_function' (pacelab needs Linux's libc)", e.getMessage());
    }
}
