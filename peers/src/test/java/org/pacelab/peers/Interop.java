package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.junit.jupiter.api.Assumptions;
import org.pacelab.quic.content.BytePattern;

/**
 * What the interop tests share: preconditions (under CI=true a missing one fails the test, otherwise the test is
 * skipped with the reason), free loopback ports, and the SHA-256 of pacelab's {@code /bytes/N} pattern.
 */
public final class Interop {
    /** The size every transfer acceptance test moves. */
    public static final long TEN_MIB = 10L << 20;
    /** Bound of one transfer in a test. */
    public static final long TRANSFER_TIMEOUT_NANOS = 120_000_000_000L;

    private Interop() {}

    public static void require(boolean ok, String reason) {
        if (ok) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("precondition missing in CI: " + reason);
        }
        Assumptions.assumeTrue(false, reason);
    }

    /** An executable on PATH (or the usual sbin directories), or null. */
    public static Path which(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        return null;
    }

    public static Path requireTool(String name, String debianPackage) {
        Path p = which(name);
        require(p != null, name + " is not installed (apt-get install -y " + debianPackage + ", or run ./run-tests as root)");
        return p;
    }

    /** A UDP port on 127.0.0.1 that was free a moment ago (for peers that cannot bind port 0 and report it). */
    public static int freeUdpPort() throws IOException {
        try (DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        }
    }

    /** SHA-256 (hex) of the first {@code n} bytes of pacelab's {@code /bytes/N} pattern. */
    public static String patternSha256(long n) {
        MessageDigest md = sha256();
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        for (long off = 0; off < n; ) {
            int len = (int) Math.min(b.capacity(), n - off);
            b.clear();
            BytePattern.fill(off, b, len);
            b.flip();
            md.update(b);
            off += len;
        }
        return HexFormat.of().formatHex(md.digest());
    }

    public static String sha256(Path file) throws IOException {
        MessageDigest md = sha256();
        try (var in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
