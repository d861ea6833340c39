package org.pacelab.quic.h3;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.h3.ScriptedPeer.bytes;
import static org.pacelab.quic.h3.ScriptedPeer.concat;
import static org.pacelab.quic.h3.ScriptedPeer.frame;

import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.pacelab.quic.app.InMemoryConnection;
import org.pacelab.quic.content.TestContent;
import org.pacelab.quic.h3.qpack.QpackError;

/** Garbage on any stream never escapes the server as an exception; it ends, at worst, in an RFC error code. */
class H3FuzzTest {
    private static final Set<Long> KNOWN_CODES = new HashSet<>();

    static {
        for (H3Error e : H3Error.values()) {
            KNOWN_CODES.add(e.code);
        }
        for (QpackError e : QpackError.values()) {
            KNOWN_CODES.add(e.code);
        }
    }

    @Property(tries = 400)
    void randomBytesOnAnyStream(@ForAll @Size(max = 400) byte[] garbage, @ForAll @IntRange(min = 0, max = 4) int where,
            @ForAll boolean fin) {
        ScriptedPeer peer = new ScriptedPeer(p -> {
            byte[] control = concat(bytes("00"), frame(FrameType.SETTINGS, new byte[0]));
            switch (where) {
                case 0 -> {
                    p.openCriticalStreams();
                    p.open(true, garbage, fin);
                }
                case 1 -> {
                    p.open(false, concat(control, garbage), fin);
                    p.open(false, bytes("02"), false);
                    p.open(false, bytes("03"), false);
                }
                case 2 -> {
                    p.open(false, control, false);
                    p.open(false, concat(bytes("02"), garbage), fin);
                }
                case 3 -> {
                    p.open(false, control, false);
                    p.open(false, concat(bytes("03"), garbage), fin);
                }
                default -> {
                    p.openCriticalStreams();
                    p.open(false, garbage, fin);
                }
            }
        });
        assertServerSurvives(peer);
    }

    @Property(tries = 400)
    void mutatedRequests(@ForAll @IntRange(min = 0, max = 10_000) int position, @ForAll byte xor,
            @ForAll @IntRange(min = 0, max = 10_000) int cut) {
        byte[] request = ScriptedPeer.request("GET", "/bytes/100");
        request[position % request.length] ^= xor;
        byte[] truncated = java.util.Arrays.copyOf(request, cut % (request.length + 1));
        ScriptedPeer peer = new ScriptedPeer(p -> {
            p.openCriticalStreams();
            p.open(true, truncated, true);
        });
        assertServerSurvives(peer);
    }

    private static void assertServerSurvives(ScriptedPeer peer) {
        InMemoryConnection conn = new InMemoryConnection(peer, new H3ServerHandler(new TestContent()),
                InMemoryConnection.Settings.of("h3"));
        conn.start();
        conn.runUntilQuiet(20_000);
        Long code = conn.server.closeCode;
        assertTrue(code == null || KNOWN_CODES.contains(code), "close code " + code);
        assertTrue(code == null || (conn.server.closeReason != null && !conn.server.closeReason.isEmpty()));
    }
}
