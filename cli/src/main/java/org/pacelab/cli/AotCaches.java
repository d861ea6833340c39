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
     * The subcommands among {@code subcommands} whose cache beside {@code jar} the JVM would not use: missing, older
     * than the jar, or refused when a JVM starts with it ({@code -XX:AOTMode=on} fails instead of running without it; a
     * cache records the jar's path, size and modification time, so a jar copied without them, e.g. by a plain
     * {@code cp}, runs without its cache and, with the cache's messages off, silently).
     */
    static List<String> unusable(Path jar, List<String> subcommands) throws IOException, InterruptedException {
        List<String> out = new java.util.ArrayList<>();
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String s : subcommands) {
            Path cache = file(jar, s);
            if (!fresh(cache, jar)) {
                out.add(s);
                continue;
            }
            // with the launcher's JVM options: the cache is checked against the options it will run with
            List<String> command = new java.util.ArrayList<>(List.of(javaBin));
            command.addAll(Launchers.JVM_OPTIONS);
            // the JVM checks the cache while it starts, before any class runs: -version is enough
            command.addAll(List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache, "-Xlog:disable", "-cp", jar.toString(),
                    "-version"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                out.add(s);
            } else if (p.exitValue() != 0) {
                out.add(s);
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
