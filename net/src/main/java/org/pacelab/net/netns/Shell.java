package org.pacelab.net.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs ip(8) and tc(8) with a bounded wait (also used by the io runtime to look at routes and qdiscs). */
public final class Shell {
    private Shell() {}

    /** A command's exit status and its standard output and error, stripped. */
    public record Result(int exit, String output) {
        public boolean ok() { return exit == 0; }
    }

    /** Runs {@code cmd}, waiting at most 30 s. */
    public static Result run(String... cmd) throws NetnsException {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new NetnsException("'" + String.join(" ", cmd) + "' did not finish within 30 s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new NetnsException("cannot run '" + cmd[0] + "' (" + e.getMessage() + "); namespace mode needs iproute2 "
                    + "(apt-get install -y iproute2)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetnsException("interrupted while running '" + String.join(" ", cmd) + "'");
        }
    }

    /** Runs a command that must succeed. */
    static String must(String... cmd) throws NetnsException {
        Result r = run(cmd);
        if (!r.ok()) throw new NetnsException("'" + String.join(" ", cmd) + "' failed: " + r.output);
        return r.output;
    }

    static List<String> lines(String s) { return s.isEmpty() ? List.of() : s.lines().toList(); }
}
