package org.pacelab.peers.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to a build: a {@code --source} that is not the expected tree, a missing build tool, a build that fails
 * half-way. Each is one sentence naming what is missing and how to get it; the cache holds nothing of the attempt.
 */
class PeerBuildFailuresTest {
    @TempDir
    Path tmp;

    private PeerBuilder builder(PeerCache cache, List<Path> given, Programs programs) {
        return new PeerBuilder(cache, new PeerSources(given, null, programs), programs, new PrintStream(new ByteArrayOutputStream()));
    }

    private static List<String> contents(PeerCache cache) throws Exception {
        if (!Files.isDirectory(cache.root())) {
            return List.of();
        }
        try (var s = Files.list(cache.root())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".lock")).sorted().toList();
        }
    }

    @Test
    void aSourceThatIsNotTheExpectedTreeIsRefusedBeforeAnythingIsBuilt() throws Exception {
        Path notATree = Files.createDirectories(tmp.resolve("src/something"));
        Files.writeString(notATree.resolve("README"), "not picoquic");
        PeerBuilder b = builder(new PeerCache(tmp.resolve("cache")), List.of(notATree), Programs.ofThisProcess());
        BuildException e = assertThrows(BuildException.class, () -> b.checkSources(List.of(new PicoquicBuild())));
        assertEquals("--source " + notATree + " is not a source tree of picoquic or picotls (no picoquic/picoquic.h, "
                + "include/picotls.h), a tarball of one, nor a directory of their snapshots (picoquic-*.tar.gz ...)", e.getMessage());

        Path missing = tmp.resolve("nope");
        BuildException e2 = assertThrows(BuildException.class, () -> builder(new PeerCache(tmp.resolve("cache")), List.of(missing),
                Programs.ofThisProcess()).checkSources(List.of(new PicoquicBuild())));
        assertEquals("--source " + missing + ": no such file or directory; give a source tree, a tarball of one, or a directory of "
                + "snapshots such as picoquic-d199d45be869.tar.gz", e2.getMessage());
        assertEquals(List.of(), contents(new PeerCache(tmp.resolve("cache"))));
    }

    @Test
    void aMissingBuildToolIsNamedWithItsPackage() throws Exception {
        Programs real = Programs.ofThisProcess();
        Programs noCmake = p -> p.equals("cmake") ? Optional.empty() : real.find(p);
        PeerCache cache = new PeerCache(tmp.resolve("cache"));
        BuildException e = assertThrows(BuildException.class, () -> builder(cache, List.of(), noCmake).install(new PicoquicBuild(), false));
        assertEquals("cmake is not installed; picoquic needs it to configure its build (Debian package cmake); install it (as root: "
                + "apt-get install cmake, or 'pacelab peers install picoquic') and try again", e.getMessage());
        assertEquals(List.of(), contents(cache));
    }

    @Test
    void aBuildThatFailsHalfWayLeavesNothingInTheCache() throws Exception {
        Programs programs = Programs.ofThisProcess();
        org.junit.jupiter.api.Assumptions.assumeTrue(programs.find("cmake").isPresent() && programs.find("c++").isPresent(),
                "cmake and a C++ compiler are needed to start a build");
        // a picotls tree whose CMake configuration fails, and a picoquic tree beside it
        Path tls = Files.createDirectories(tmp.resolve("picotls-broken/include"));
        Files.writeString(tls.resolve("picotls.h"), "/* not picotls */\n");
        Files.writeString(tls.getParent().resolve("CMakeLists.txt"), "cmake_minimum_required(VERSION 3.13)\nproject(x C)\n"
                + "message(FATAL_ERROR \"this is not picotls\")\n");
        Path quic = Files.createDirectories(tmp.resolve("picoquic-broken/picoquic"));
        Files.writeString(quic.resolve("picoquic.h"), "/* not picoquic */\n");
        PeerCache cache = new PeerCache(tmp.resolve("cache"));
        PeerBuilder b = builder(cache, List.of(tls.getParent(), quic.getParent()), programs);
        b.checkSources(List.of(new PicoquicBuild()));
        BuildException e = assertThrows(BuildException.class, () -> b.install(new PicoquicBuild(), false));
        assertTrue(e.getMessage().startsWith("picoquic: configuring picotls failed (cmake exited with status 1): "), e.getMessage());
        assertTrue(e.getMessage().contains("this is not picotls"), e.getMessage());
        assertTrue(e.getMessage().matches(".*\\(the build log is /.*pacelab-build-picoquic-.*\\.log\\)"), e.getMessage());
        assertEquals(List.of(), contents(cache), "no staging directory, no build, no link");
        assertTrue(cache.installed("picoquic").isEmpty());
    }

    @Test
    void noSourceAnywhereSaysWhereToGetOne() throws Exception {
        Programs programs = Programs.ofThisProcess();
        Programs noGit = p -> p.equals("git") ? Optional.empty() : programs.find(p);
        org.junit.jupiter.api.Assumptions.assumeTrue(List.of("cmake", "make", "cc", "c++", "pkg-config", "tar").stream()
                .allMatch(t -> programs.find(t).isPresent()), "picoquic's build tools are needed to get as far as the sources");
        PeerCache cache = new PeerCache(tmp.resolve("cache"));
        PeerBuilder b = new PeerBuilder(cache, new PeerSources(List.of(), null, noGit), noGit, new PrintStream(new ByteArrayOutputStream()));
        org.junit.jupiter.api.Assumptions.assumeTrue(new PicoquicBuild().missingPrerequisite(noGit) == null, "libssl-dev is needed");
        BuildException e = assertThrows(BuildException.class, () -> b.install(new PicoquicBuild(), false));
        assertEquals("no picoquic source in PACELAB_PEER_SOURCES (unset), and git is not installed to fetch "
                + "https://github.com/private-octopus/picoquic at d199d45be869 (Debian package git); give --source DIR|TARBALL or set "
                + "PACELAB_PEER_SOURCES to a directory of snapshots", e.getMessage());
        assertEquals(List.of(), contents(cache));
    }
}
