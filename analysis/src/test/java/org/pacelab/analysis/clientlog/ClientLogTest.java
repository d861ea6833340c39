package org.pacelab.analysis.clientlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientLogTest {
    @TempDir
    Path dir;

    @Test
    void transfersSpanFromFirstRequestToLastByte() throws IOException {
        Path f = Files.writeString(dir.resolve("c.json"), "{\"wall_time_ns\":3000000000,\"transfers\":["
                + "{\"url\":\"/a\",\"bytes\":1000,\"request_ns\":100,\"first_byte_ns\":200,\"last_byte_ns\":1000000100,\"status\":200},"
                + "{\"url\":\"/b\",\"bytes\":500,\"request_ns\":50,\"first_byte_ns\":60,\"last_byte_ns\":2000000050,\"status\":200}]}");
        ClientLog log = ClientLog.read(f);
        assertEquals(1500, log.totalBytes());
        assertEquals(2_000_000_000, log.transferSpanNs());
        assertEquals(3_000_000_000L, log.wallTimeNs());
    }

    @Test
    void missingFieldIsNamed() throws IOException {
        Path f = Files.writeString(dir.resolve("c.json"), "{\"wall_time_ns\":1,\"transfers\":[{\"bytes\":1,\"request_ns\":0}]}");
        IOException e = assertThrows(IOException.class, () -> ClientLog.read(f));
        assertTrue(e.getMessage().contains("transfers[0]") && e.getMessage().contains("last_byte_ns"), e.getMessage());
    }
}
