package org.pacelab.analysis.qlog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Assigns the server's qlog traces to captured connections: by a connection ID the trace names (group_id, ODCID,
 * original_destination_connection_id, or the file name, which ngtcp2 takes from the server's connection ID);
 * a trace that names none goes to the first connection that has no named trace.
 */
public final class QlogMatcher {
    private final List<QlogTrace> server = new ArrayList<>();
    private final List<QlogTrace> unnamedLeft = new ArrayList<>();
    private final Map<Object, QlogTrace> assigned = new HashMap<>();
    private final List<QlogTrace> used = new ArrayList<>();
    private final int clientOnly;

    public QlogMatcher(List<QlogTrace> traces) {
        int clients = 0;
        for (QlogTrace t : traces) {
            if (t.vantagePoint().equals("client")) {
                clients++;
                continue;
            }
            server.add(t);
            if (t.connectionIds().isEmpty()) {
                unnamedLeft.add(t);
            }
        }
        this.clientOnly = clients;
    }

    /** Server-side (or unlabelled) traces available. */
    public int serverTraces() {
        return server.size();
    }

    /** Traces skipped because they were written by the client. */
    public int clientTraces() {
        return clientOnly;
    }

    /**
     * The trace for a connection identified by {@code key}, with its original DCID and server CID in hex ("" when
     * unknown); null when none fits.
     */
    public QlogTrace traceFor(Object key, String originalDcidHex, String serverCidHex) {
        if (assigned.containsKey(key)) {
            return assigned.get(key);
        }
        QlogTrace found = null;
        for (QlogTrace t : server) {
            if (named(t, originalDcidHex) || named(t, serverCidHex)) {
                found = t;
                break;
            }
        }
        if (found == null && !unnamedLeft.isEmpty()) {
            found = unnamedLeft.removeFirst();
        }
        if (found == null && server.size() == 1 && assigned.isEmpty()) {
            found = server.getFirst();
        }
        assigned.put(key, found);
        if (found != null && !used.contains(found)) {
            used.add(found);
        }
        return found;
    }

    private static boolean named(QlogTrace t, String idHex) {
        if (idHex.isEmpty()) {
            return false;
        }
        String id = idHex.toLowerCase(Locale.ROOT);
        return t.connectionIds().contains(id) || t.file().getFileName().toString().toLowerCase(Locale.ROOT).contains(id);
    }

    /** Traces assigned to some connection, in order of first use. */
    public List<QlogTrace> used() {
        return List.copyOf(used);
    }
}
