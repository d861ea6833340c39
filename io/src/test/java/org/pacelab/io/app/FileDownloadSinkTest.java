package org.pacelab.io.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileDownloadSinkTest {
    @TempDir
    Path base;
    private Path out;
    private FileDownloadSink sink;

    @BeforeEach
    void setUp() throws IOException {
        out = base.resolve("downloads/nested");
        sink = new FileDownloadSink(out);
    }

    private static DownloadRequest request(String target) {
        return new DownloadRequest("example.test", target);
    }

    private List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.list(out)) {
            return s.toList();
        }
    }

    @Test
    void writesToATemporaryFileAndRenamesOnCommit() throws IOException {
        DownloadOutput o = sink.open(request("/dir/file.bin?version=2"));
        o.write(ByteBuffer.wrap(new byte[] {1, 2}));
        o.write(ByteBuffer.allocateDirect(3).put(new byte[] {3, 4, 5}).flip());
        assertFalse(Files.exists(out.resolve("file.bin")), "nothing under the final name before commit");
        assertEquals(1, listing().size());
        assertTrue(listing().get(0).getFileName().toString().endsWith(".part"));
        o.commit();
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, Files.readAllBytes(out.resolve("file.bin")));
        assertEquals(List.of(out.toRealPath().resolve("file.bin")), listing());
    }

    @Test
    void aBodyLargerThanTheWriteBufferArrivesIntactInAnyPieces() throws IOException {
        byte[] body = new byte[3 * (1 << 20) + 12_345];
        new java.util.Random(7).nextBytes(body);
        DownloadOutput o = sink.open(request("/big.bin"));
        int at = 0;
        for (int piece : new int[] {1400, 1, (1 << 20) - 1401, 2 << 20}) {
            o.write(ByteBuffer.wrap(body, at, piece));
            at += piece;
        }
        while (at < body.length) {
            int n = Math.min(1400, body.length - at);
            ByteBuffer b = ByteBuffer.allocateDirect(n).put(body, at, n).flip();
            o.write(b);
            assertFalse(b.hasRemaining(), "write takes every byte");
            at += n;
        }
        o.commit();
        assertArrayEquals(body, Files.readAllBytes(out.resolve("big.bin")));
    }

    @Test
    void abortLeavesNothing() throws IOException {
        Files.writeString(out.resolve("keep.bin"), "previous complete download");
        DownloadOutput o = sink.open(request("/keep.bin"));
        o.write(ByteBuffer.wrap(new byte[100]));
        o.abort();
        assertEquals(List.of(out.toRealPath().resolve("keep.bin")), listing());
        assertEquals("previous complete download", Files.readString(out.resolve("keep.bin")));
    }

    @Test
    void replacesASymlinkInsteadOfWritingThroughIt() throws IOException {
        Path victim = Files.writeString(base.resolve("victim"), "must stay");
        Files.createSymbolicLink(out.resolve("f.bin"), victim);
        DownloadOutput o = sink.open(request("/f.bin"));
        o.write(ByteBuffer.wrap(new byte[] {9}));
        o.commit();
        assertEquals("must stay", Files.readString(victim));
        assertFalse(Files.isSymbolicLink(out.resolve("f.bin")));
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(out.resolve("f.bin")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/dir/", "/..", "/a/..", "/a/.", "/a/%2e%2e", "/a%2f..", "/%2e%2e%2fescape",
            "/x%5c..%5cy", "/a%00b", "/%zz", "/%c3%28"})
    void refusesNamesThatAreNotAFileInTheDirectory(String target) throws IOException {
        IOException e = assertThrows(IOException.class, () -> sink.open(request(target)));
        assertTrue(e.getMessage().contains("URL path"), e.getMessage());
        assertEquals(List.of(), listing());
    }

    @Test
    void decodesAndSanitizesNames() throws IOException {
        assertEquals(out.toRealPath().resolve("a b.txt"), sink.fileFor(request("/x/a%20b.txt")));
        assertEquals(out.toRealPath().resolve("a_b"), sink.fileFor(request("/a%01b")));
        assertEquals(out.toRealPath().resolve("..."), sink.fileFor(request("/...")));
        IOException e = assertThrows(IOException.class, () -> sink.fileFor(request("/" + "n".repeat(256))));
        assertTrue(e.getMessage().contains("255"));
    }
}
