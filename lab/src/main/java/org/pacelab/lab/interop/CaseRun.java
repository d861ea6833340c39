package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a check sees of a finished run: the files served and downloaded, the key log, and the tap as Wireshark
 * dissects it (read on first use).
 *
 * (The served files' names are those the client was asked for, in request order.)
 */
public final class CaseRun {
    private final InteropCase testCase;
    private final Path www;
    private final Path downloads;
    private final List<String> served;
    private final Path keyLog;
    private final Loader loader;
    private Trace trace;

    /** Reads the trace when a check first asks for it. */
    @FunctionalInterface
    public interface Loader {
        Trace load(Path keyLogOrNull) throws IOException, InterruptedException;
    }

    /**
     * @param keyLog the key log the runner would use (the client's when valid, else the server's)
     * @param loader dissects the tap, with the key log when it is valid
     */
    public CaseRun(InteropCase testCase, Path www, Path downloads, List<String> served, Path keyLog, Loader loader) {
        this.testCase = testCase;
        this.www = www;
        this.downloads = downloads;
        this.served = List.copyOf(served);
        this.keyLog = keyLog;
        this.loader = loader;
    }

    /** A run whose tap {@code reader} dissects. */
    public static CaseRun ofTap(InteropCase testCase, Path www, Path downloads, List<String> served, Path keyLog, Path tap,
                                Set<Integer> serverPorts, TraceReader reader, Path work) {
        return new CaseRun(testCase, www, downloads, served, keyLog, k -> reader.read(tap, k, serverPorts, work));
    }

    public InteropCase testCase() {
        return testCase;
    }

    /** The tap, dissected with the key log when it is usable. */
    public Trace trace() throws IOException, InterruptedException {
        if (trace == null) {
            trace = loader.load(validKeyLog() ? keyLog : null);
        }
        return trace;
    }

    /**
     * Whether the key log can decrypt the handshake: it exists and has a SERVER_HANDSHAKE_TRAFFIC_SECRET line (the
     * runner's {@code _is_valid_keylog}).
     */
    public boolean validKeyLog() throws IOException {
        if (keyLog == null || !Files.isRegularFile(keyLog) || Files.size(keyLog) == 0) {
            return false;
        }
        try (Stream<String> lines = Files.lines(keyLog)) {
            return lines.anyMatch(l -> l.startsWith("SERVER_HANDSHAKE_TRAFFIC_SECRET"));
        }
    }

    /**
     * The runner's {@code _check_files}: exactly the requested files were downloaded, each with the served bytes.
     * Null when they were; otherwise why not.
     */
    public String filesProblem() throws IOException {
        Set<String> got = new TreeSet<>();
        if (Files.isDirectory(downloads)) {
            try (Stream<Path> s = Files.list(downloads)) {
                s.filter(Files::isRegularFile).forEach(p -> got.add(p.getFileName().toString()));
            }
        }
        Set<String> want = new TreeSet<>(served);
        List<String> missing = new ArrayList<>(want);
        missing.removeAll(got);
        List<String> extra = new ArrayList<>(got);
        extra.removeAll(want);
        if (!missing.isEmpty() || !extra.isEmpty()) {
            return (missing.isEmpty() ? "" : missing.size() + " of " + want.size() + " files missing (" + sample(missing) + ")")
                    + (!missing.isEmpty() && !extra.isEmpty() ? "; " : "")
                    + (extra.isEmpty() ? "" : extra.size() + " unexpected files downloaded (" + sample(extra) + ")");
        }
        for (String f : want) {
            Path a = www.resolve(f), b = downloads.resolve(f);
            long sa = Files.size(a), sb = Files.size(b);
            if (sa != sb) {
                return "file " + shortName(f) + " has " + sb + " bytes instead of " + sa;
            }
            if (!sameContent(a, b)) {
                return "file " + shortName(f) + " differs from the served one";
            }
        }
        return null;
    }

    private static boolean sameContent(Path a, Path b) throws IOException {
        try (InputStream x = Files.newInputStream(a); InputStream y = Files.newInputStream(b)) {
            byte[] p = new byte[65536], q = new byte[65536];
            while (true) {
                int n = x.readNBytes(p, 0, p.length);
                int m = y.readNBytes(q, 0, q.length);
                if (n != m || !Arrays.equals(p, 0, n, q, 0, m)) {
                    return false;
                }
                if (n == 0) {
                    return true;
                }
            }
        }
    }

    private static String sample(List<String> names) {
        List<String> s = names.stream().limit(3).map(CaseRun::shortName).toList();
        return String.join(", ", s) + (names.size() > 3 ? ", ..." : "");
    }

    private static String shortName(String f) {
        return f.length() > 24 ? f.substring(0, 21) + "..." : f;
    }
}
