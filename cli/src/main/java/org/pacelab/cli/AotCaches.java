package org.pacelab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM's ahead-of-time caches (JDK 25: JEP 483 class loading and linking, JEP 514 one-step training, JEP 515
 * method profiles) for {@code pacelab server}, {@code pacelab client} and {@code pacelab sim}: trained by
 * {@code pacelab jvm-cache} (server and client on a loopback transfer, sim on a short simulated one) and kept beside
 * the jar in {@code aot/SUBCOMMAND.aot}. A JVM started with a cache loads the
 * classes it holds already parsed and linked, and compiles with the training's profiles from the start, so a short
 * transfer spends less of its time starting and in slow code (measured in docs/benchmarks.md). A cache is used only
 * when it is newer than the jar (a cache of another build is refused by the JVM anyway); its log lines are switched off
 * so that a refused cache never mixes JVM messages into pacelab's output. The {@code ./pacelab} launcher applies the
 * same rule.
 */
final class AotCaches {
    /** The subcommands that get a cache. */
    static final List<String> SUBCOMMANDS = List.of("server", "client", "sim");
    /** Keep the JVM's cache messages out of pacelab's output. */
    static final List<String> QUIET = List.of("-Xlog:aot*=off", "-Xlog:cds*=off");

    private AotCaches() {}

    /** The directory of the caches of {@code jar}. */
    static Path directory(Path jar) {
        return jar.toAbsolutePath().getParent().resolve("aot");
    }

    /** The cache file of a subcommand. */
    static Path file(Path jar, String subcommand) {
        return directory(jar).resolve(subcommand + ".aot");
    }

    /** The jar this JVM runs from, or null when its class path is not a single jar (tests, an IDE). */
    static Path runningJar() {
        String cp = System.getProperty("java.class.path", "");
        if (cp.isEmpty() || cp.contains(java.io.File.pathSeparator) || !cp.endsWith(".jar")) {
            return null;
        }
        Path p = Path.of(cp);
        return Files.isRegularFile(p) ? p.toAbsolutePath() : null;
    }

    /**
     * {@code -XX:AOTCache=...} (and the quiet log options) per subcommand whose cache is newer than {@code jar}; none
     * when the environment sets {@code PACELAB_AOT=off} (as for the {@code ./pacelab} launcher).
     */
    static Map<String, List<String>> jvmOptions(Path jar) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        if (jar == null || "off".equals(System.getenv("PACELAB_AOT"))) {
            return m;
        }
        for (String s : SUBCOMMANDS) {
            Path cache = file(jar, s);
            if (fresh(cache, jar)) {
                m.put(s, List.of("-XX:AOTCache=" + cache, QUIET.get(0), QUIET.get(1)));
            }
        }
        return m;
    }

    /**
     * Why the JVM would not use the cache of each of {@code subcommands} beside {@code jar}, by subcommand (empty when
     * it would use them all): missing, not newer than the jar (the launcher then leaves it out), or refused when a JVM
     * starts with it under {@code -XX:AOTMode=on}, which fails instead of running without it. pacelab's jar copied by a
     * plain {@code cp} is refused ("This file is not the one used while building the shared archive file ...
     * timestamp has changed"): with the cache's messages off it would run without its cache, silently. The JVM checks
     * what it records of the jar; a jar whose classes it does not archive (a one-class jar) is not checked that way.
     */
    static Map<String, String> unusable(Path jar, List<String> subcommands) throws IOException, InterruptedException {
        Map<String, String> out = new LinkedHashMap<>();
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String s : subcommands) {
            Path cache = file(jar, s);
            if (!Files.isRegularFile(cache)) {
                out.put(s, "is missing");
                continue;
            }
            if (!fresh(cache, jar)) {
                out.put(s, "is not newer than " + jar.getFileName());
                continue;
            }
            // with that build's JVM options, which the cache must match; the JVM checks it while it starts: -version
            List<String> command = new java.util.ArrayList<>(List.of(javaBin));
            command.addAll(Launchers.jvmOptionsOf(jar));
            command.addAll(List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache, "-cp", jar.toString(), "-version"));
            Path log = Files.createTempFile("pacelab-aot-check-", ".log");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    out.put(s, "was not checked: the JVM did not answer within 60 s");
                } else if (p.exitValue() != 0) {
                    String first = Files.readAllLines(log).stream().filter(l -> l.contains("[aot") || l.contains("AOT"))
                            .findFirst().orElse("exit " + p.exitValue());
                    out.put(s, "is refused by the JVM: " + first.replaceFirst("^\\[[^]]*\\]\\[[^]]*\\]\\[[^]]*\\] *", "").strip());
                }
            } finally {
                Files.deleteIfExists(log);
            }
        }
        return out;
    }

    static boolean fresh(Path cache, Path jar) {
        try {
            return Files.isRegularFile(cache) && Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(jar)) > 0;
        } catch (IOException e) {
            return false;
        }
    }
}
