package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCachesTest {
    @TempDir
    Path dir;

    @Test
    void aCacheIsUsedOnlyWhenNewerThanTheJar() throws IOException {
        Path jar = Files.writeString(dir.resolve("pacelab.jar"), "jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
        assertTrue(AotCaches.jvmOptions(jar).isEmpty(), "no caches yet");

        Files.createDirectories(AotCaches.directory(jar));
        Path server = Files.writeString(AotCaches.file(jar, "server"), "cache");
        Path client = Files.writeString(AotCaches.file(jar, "client"), "cache");
        Files.setLastModifiedTime(server, FileTime.fromMillis(2_000_000));
        Files.setLastModifiedTime(client, FileTime.fromMillis(500_000)); // an older build's
        Map<String, List<String>> options = AotCaches.jvmOptions(jar);
        assertEquals(List.of("server"), List.copyOf(options.keySet()));
        assertEquals(List.of("-XX:AOTCache=" + server, "-Xlog:aot*=off", "-Xlog:cds*=off"), options.get("server"));

        assertTrue(AotCaches.jvmOptions(null).isEmpty(), "not run from a jar");

        Path sim = Files.writeString(AotCaches.file(jar, "sim"), "cache");
        Files.setLastModifiedTime(sim, FileTime.fromMillis(2_000_000));
        assertEquals(List.of("server", "sim"), List.copyOf(AotCaches.jvmOptions(jar).keySet()));
        assertEquals("-XX:AOTCache=" + sim, Launchers.forClassPath(jar.toString())
                .command(List.of("sim", "--out", "x")).get(1));
    }

    @Test
    void aCacheTheJvmRefusesIsNamedAsUnusableAndATrainedOneIsNot() throws Exception {
        // a jar with one class, and a cache the JVM trains on it (JEP 514) with the launcher's options
        Path src = Files.createDirectories(dir.resolve("src/p"));
        Files.writeString(src.resolve("Hello.java"), "package p; public class Hello { public static void main(String[] a) { } }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertEquals(0, javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", classes.toString(), src.resolve("Hello.java").toString()));
        Path jar = dir.resolve("pacelab.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("p/Hello.class"));
            out.write(Files.readAllBytes(classes.resolve("p/Hello.class")));
        }
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.createDirectories(AotCaches.directory(jar));
        assertEquals(Map.of("server", "is missing", "client", "is missing"),
                AotCaches.unusable(jar, List.of("server", "client")), "no caches");

        List<String> train = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        train.addAll(Launchers.jvmOptionsOf(jar));
        train.addAll(List.of("-XX:AOTCacheOutput=" + AotCaches.file(jar, "server"), "-cp", jar.toString(), "p.Hello"));
        Process p = new ProcessBuilder(train).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, "training");
        // the client's "cache" is not one: the JVM refuses it (with -XX:AOTMode=on it fails instead of running without)
        Files.writeString(AotCaches.file(jar, "client"), "not a cache");
        Map<String, String> why = AotCaches.unusable(jar, List.of("server", "client"));
        assertEquals(List.of("client"), List.copyOf(why.keySet()), why.toString());
        assertTrue(why.get("client").startsWith("is refused by the JVM: "), why.toString());

        // a cache older than its jar is never passed to the JVM
        Files.setLastModifiedTime(AotCaches.file(jar, "server"), FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        assertEquals(Map.of("server", "is not newer than pacelab.jar"), AotCaches.unusable(jar, List.of("server")));
        // (a plain copy of pacelab's own jar, whose classes the cache holds, is refused too: "timestamp has changed";
        // this one-class jar's cache is not checked against its jar that way, so that case is not reproduced here)
    }

    @Test
    void theLauncherAddsTheCacheToServerAndClientOfThatJar() throws IOException {
        Path jar = Files.writeString(dir.resolve("pacelab.jar"), "jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
        Files.createDirectories(AotCaches.directory(jar));
        Path client = Files.writeString(AotCaches.file(jar, "client"), "cache");
        Files.setLastModifiedTime(client, FileTime.fromMillis(2_000_000));
        List<String> command = Launchers.forClassPath(jar.toString()).command(List.of("client", "https://x/"));
        assertEquals("-XX:AOTCache=" + client, command.get(1));
        assertEquals(List.of("-cp", jar.toString(), Main.class.getName(), "client", "https://x/"),
                command.subList(command.size() - 5, command.size()));
        List<String> server = Launchers.forClassPath(jar.toString()).command(List.of("server"));
        assertTrue(server.stream().noneMatch(a -> a.startsWith("-XX:AOTCache")), server.toString());
    }
}
