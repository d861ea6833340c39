package org.pacelab.sim.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.table.TimelineCsv;

/**
 * timeline.csv's bytes made on a thread of their own ({@code timeline-render}) while the analysis goes on: as soon as
 * the server qlog's traces are read, the timelines that can become the summary's (those with the most points: the
 * analysis takes the largest of the traces it matched) are rendered with {@link TimelineCsv#render}; when the analysis
 * has chosen its timeline, {@link #write} writes the rendered bytes if they are that timeline's, and renders it as
 * before otherwise. A 100 MiB quic-steps run's timeline is 2.5 MB of text, most of it doubles formatted in
 * C1-compiled code: 40 of the main thread's 164 JFR samples after the engine (docs/benchmarks.md, issue 14, fourth
 * sitting). The file and its bytes are the same either way; a failed render is done again on the writing thread.
 */
final class TimelineAhead {
    private CompletableFuture<Map<CongestionTimeline, byte[]>> rendered;

    /** Starts rendering the timelines of {@code traces} with the most points (none when every one is empty). */
    void start(List<QlogTrace> traces) {
        int most = traces.stream().mapToInt(t -> t.timeline().size()).max().orElse(0);
        if (rendered != null || most == 0) {
            return;
        }
        List<CongestionTimeline> candidates = traces.stream().map(QlogTrace::timeline).filter(t -> t.size() == most).toList();
        CompletableFuture<Map<CongestionTimeline, byte[]>> f = new CompletableFuture<>();
        rendered = f;
        Thread.ofPlatform().name("timeline-render").daemon().start(() -> {
            try {
                Map<CongestionTimeline, byte[]> m = new IdentityHashMap<>();
                for (CongestionTimeline t : candidates) {
                    m.put(t, TimelineCsv.render(t));
                }
                f.complete(m);
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
    }

    /** Writes {@code t} to {@code file} as {@link TimelineCsv#write(CongestionTimeline, Path)} does. */
    void write(CongestionTimeline t, Path file) throws IOException {
        byte[] bytes = rendered(t);
        if (bytes != null) {
            TimelineCsv.write(bytes, file);
        } else {
            TimelineCsv.write(t, file);
        }
    }

    /** {@code t}'s rendered bytes, or null: not one of the candidates, or the render failed. */
    byte[] rendered(CongestionTimeline t) {
        if (rendered == null) {
            return null;
        }
        try {
            return rendered.get().get(t);
        } catch (ExecutionException e) {
            return null; // rendered on the writing thread, which then fails as it would have
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
