package org.pacelab.peers.build;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The source files of the peer programs written in this project (the quic-go and aioquic servers and clients),
 * shipped as resources of this module, and their fingerprint: a build records it, and a build made from other
 * versions of these files is built again.
 */
final class ProgramSources {
    private final String base;
    private final List<String> files;

    /** @param base the resource directory, e.g. {@code /org/pacelab/peers/quicgo/}; {@code files} relative to it */
    ProgramSources(String base, List<String> files) {
        this.base = base;
        this.files = List.copyOf(files);
    }

    /** Writes the files under {@code dir}, keeping their relative paths. */
    void copyTo(Path dir) throws BuildException {
        for (String f : files) {
            Path target = dir.resolve(f);
            try (InputStream in = open(f)) {
                Files.createDirectories(target.getParent());
                Files.copy(in, target);
            } catch (IOException e) {
                throw new BuildException("cannot write " + target + ": " + e.getMessage());
            }
        }
    }

    /** SHA-256 (first 12 hex digits) over the files' names and contents. */
    String fingerprint() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String f : files) {
                md.update(f.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                md.update((byte) 0);
                try (InputStream in = open(f)) {
                    md.update(in.readAllBytes());
                }
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException("the peer programs shipped with pacelab cannot be read: " + e.getMessage(), e);
        }
    }

    private InputStream open(String f) throws IOException {
        InputStream in = ProgramSources.class.getResourceAsStream(base + f);
        if (in == null) {
            throw new IOException("this build of pacelab lacks " + base + f);
        }
        return in;
    }
}
