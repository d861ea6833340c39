package org.pacelab.io.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.pacelab.quic.content.Body;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileTreeContentTest {
    @TempDir
    Path base;
    private Path root;
    private FileTreeContent content;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectory(base.resolve("www"));
        Files.writeString(base.resolve("secret"), "outside the root");
        Files.createDirectory(base.resolve("www-evil"));
        Files.writeString(base.resolve("www-evil/x"), "sibling with a common prefix");
        Files.writeString(root.resolve("a.txt"), "alpha");
        Files.writeString(root.resolve("with space.txt"), "spaced");
        Files.writeString(root.resolve("ünï.txt"), "unicode");
        Files.createDirectory(root.resolve("dir"));
        Files.write(root.resolve("dir/b.bin"), new byte[] {1, 2, 3});
        Files.createSymbolicLink(root.resolve("link-out"), base.resolve("secret"));
        Files.createSymbolicLink(root.resolve("dir-out"), base);
        Files.createSymbolicLink(root.resolve("link-in"), root.resolve("a.txt"));
        Files.createSymbolicLink(root.resolve("dangling"), base.resolve("nothing"));
        content = new FileTreeContent(root);
    }

    private String body(ContentSource source, String target) throws IOException {
        Content c = source.open(target);
        Body b = assertInstanceOf(Content.Found.class, c, () -> target + " -> " + c).body();
        ByteBuffer buf = ByteBuffer.allocate((int) b.length());
        while (buf.hasRemaining() && b.read(buf) > 0) {
            // fill
        }
        b.close();
        return new String(buf.array(), StandardCharsets.UTF_8);
    }

    @Test
    void servesRegularFilesInsideTheRoot() throws IOException {
        assertEquals("alpha", body(content, "/a.txt"));
        assertEquals("alpha", body(content, "/a.txt?download=1"));
        assertEquals("alpha", body(content, "//a.txt"));
        assertEquals("spaced", body(content, "/with%20space.txt"));
        assertEquals("unicode", body(content, "/%C3%BCn%C3%AF.txt"));
        assertEquals("alpha", body(content, "/link-in"));
        // Leaves the root through a link and comes back: the real path is inside, so it is served.
        assertEquals("alpha", body(content, "/dir-out/www/a.txt"));
        assertEquals("\u0001\u0002\u0003", body(content, "/dir/b.bin"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/../secret", "/..", "/.", "/./a.txt", "/dir/../a.txt", "/dir/../../secret",
            "/%2e%2e/secret", "/%2E%2E/secret", "/%2e%2e%2fsecret", "/%2E%2E%2Fsecret", "/dir/..%2f..%2fsecret",
            "/.%2e/secret", "/%2e./secret", "/..%5csecret", "/..\\secret", "/dir\\..\\..\\secret", "/%5c..%5csecret",
            "/%00", "/a.txt%00", "/a.txt%00.png", "/%2fetc%2fpasswd", "/%2Fetc/passwd", "//etc/passwd",
            "/link-out", "/dir-out/secret", "/dangling", "/dir", "/", "",
            "/missing", "/a.txt/more", "/%252e%252e/secret", "/..;/secret", "relative.txt",
            "http://example.test/a.txt", "/../www-evil/x", "/%2e%2e%2fwww-evil/x"})
    void refusesEverythingElseWith404(String target) {
        Content c = content.open(target);
        Content.Refused r = assertInstanceOf(Content.Refused.class, c, () -> target + " was served");
        assertEquals(404, r.status(), r.reason());
        assertTrue(r.reason().contains("request target"), r.reason());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/%zz", "/a%2", "/a%", "/%c3%28"})
    void refusesUndecodableTargetsWith400(String target) {
        Content.Refused r = assertInstanceOf(Content.Refused.class, content.open(target));
        assertEquals(400, r.status(), r.reason());
    }

    @Test
    void rootGivenThroughASymlinkIsResolved() throws IOException {
        Path link = Files.createSymbolicLink(base.resolve("root-link"), root);
        FileTreeContent viaLink = new FileTreeContent(link);
        assertEquals(root.toRealPath(), viaLink.root());
        assertEquals("alpha", body(viaLink, "/a.txt"));
        assertInstanceOf(Content.Refused.class, viaLink.open("/../secret"));
    }

    @Test
    void missingRootIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FileTreeContent(base.resolve("absent")));
        assertTrue(e.getMessage().contains("absent"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new FileTreeContent(root.resolve("a.txt")));
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
    }

    @Test
    void truncatedFileIsAnErrorNotShortData() throws IOException {
        Files.write(root.resolve("shrinks"), new byte[1000]);
        Body b = ((Content.Found) content.open("/shrinks")).body();
        Files.write(root.resolve("shrinks"), new byte[10]);
        ByteBuffer buf = ByteBuffer.allocate(1000);
        IOException e = assertThrows(IOException.class, () -> {
            while (buf.hasRemaining()) {
                b.read(buf);
            }
        });
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        b.close();
    }

    @Test
    void serverContentAddsSyntheticBytes() throws IOException {
        ContentSource server = ServerContent.of(root);
        assertEquals(100, ((Content.Found) server.open("/bytes/100")).body().length());
        assertEquals("alpha", body(server, "/a.txt"));
        assertEquals(404, ((Content.Refused) server.open("/../secret")).status());
    }

    @Test
    void readsIntoDirectBuffersInChunks() throws IOException {
        byte[] data = new byte[300_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }
        Files.write(root.resolve("big"), data);
        Body b = ((Content.Found) content.open("/big")).body();
        ByteBuffer chunk = ByteBuffer.allocateDirect(4096);
        byte[] out = new byte[data.length];
        int at = 0;
        while (at < out.length) {
            chunk.clear();
            int n = b.read(chunk);
            chunk.flip().get(out, at, n);
            at += n;
        }
        chunk.clear();
        assertEquals(0, b.read(chunk));
        assertArrayEquals(data, out);
        b.close();
    }
}
