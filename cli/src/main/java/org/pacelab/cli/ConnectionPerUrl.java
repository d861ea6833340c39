package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;

/**
 * A peer client's {@code --connection-per-url}: each request over its own new connection, one after the other, as the
 * QUIC Interop Runner's clients do for {@code TESTCASE=multiconnect} (handshakeloss, handshakecorruption). Each
 * connection is a full handshake of its own (the downloader keeps no session between calls, so none resumes) with the
 * whole timeout to itself; the first connection that fails ends the run, as the runner's check would.
 */
final class ConnectionPerUrl {
    private ConnectionPerUrl() {}

    /** One connection: connects, downloads {@code requests} and closes. */
    @FunctionalInterface
    interface Downloader {
        QuicClient.Outcome download(List<DownloadRequest> requests) throws IOException;
    }

    /**
     * Downloads each request over its own connection, printing a line per connection and per download to {@code out};
     * which connection is starting, and which failed, go to {@code progress} (stderr: the last line there is what a
     * harness that stops the process on a timeout reports, and Kwik prints a warning on stdout per connection).
     *
     * @return the exit code: 0 when every download succeeded, 1 at the first connection that did not
     * @throws IOException naming the connection, when the downloader could not run it (e.g. no UDP socket)
     */
    static int run(List<DownloadRequest> requests, Downloader downloader, PrintStream out, PrintStream progress)
            throws IOException {
        return runGroups(requests.stream().map(List::of).toList(), downloader, out, progress);
    }

    /**
     * As {@link #run}, but each connection downloads one group of requests (a client that resumes its first
     * connection's session in its second: the first URL, then the rest), one connection after the other.
     */
    static int runGroups(List<List<DownloadRequest>> groups, Downloader downloader, PrintStream out, PrintStream progress)
            throws IOException {
        int n = groups.size();
        for (int i = 0; i < n; i++) {
            String which = "connection " + (i + 1) + " of " + n;
            progress.println(which + ": connecting");
            QuicClient.Outcome o;
            try {
                o = downloader.download(groups.get(i));
            } catch (IOException e) {
                throw new IOException(which + ": " + e.getMessage(), e);
            }
            out.println(which + ": " + (o.handshakeNanos() < 0 ? "no handshake"
                    : String.format(Locale.ROOT, "handshake %.3f ms", o.handshakeNanos() / 1e6)));
            for (DownloadResult r : o.results()) {
                out.println(ClientLog.describe(r));
            }
            if (!o.allSucceeded()) {
                progress.println(which + " failed: " + (o.timedOut() ? "timed out" : o.results().isEmpty() ? o.closeReason()
                        : "a download failed") + "; the remaining " + (n - i - 1) + " not attempted");
                return 1;
            }
        }
        return 0;
    }
}
