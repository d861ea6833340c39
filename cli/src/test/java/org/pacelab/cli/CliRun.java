package org.pacelab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in this JVM and captures what it prints. */
record CliRun(int code, String out, String err) {
    /** The first line the command printed on standard error ("" when none). */
    String firstErrorLine() {
        return err.lines().findFirst().orElse("");
    }

    static CliRun of(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /**
     * Runs the CLI in a fresh JVM, as a user would (a campaign's simulator must own its JVM's randomness from the
     * start; other tests in this JVM have done TLS already). Output is collected in files, the wait is bounded.
     */
    static CliRun inChild(java.nio.file.Path workDir, String... args) throws java.io.IOException, InterruptedException {
        return inChild(workDir, java.util.Map.of(), args);
    }

    /** As {@link #inChild(java.nio.file.Path, String...)}, with these environment variables changed for the child. */
    static CliRun inChild(java.nio.file.Path workDir, java.util.Map<String, String> environment, String... args)
            throws java.io.IOException, InterruptedException {
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(javaBin, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(java.util.List.of(args));
        java.nio.file.Path out = java.nio.file.Files.createTempFile(workDir, "cli", ".out");
        java.nio.file.Path err = java.nio.file.Files.createTempFile(workDir, "cli", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(environment);
        Process p = pb.start();
        try {
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.MINUTES)) {
                throw new AssertionError("pacelab " + String.join(" ", args) + " did not finish within 30 minutes");
            }
        } finally {
            p.destroy();
        }
        return new CliRun(p.exitValue(), java.nio.file.Files.readString(out), java.nio.file.Files.readString(err));
    }
}
