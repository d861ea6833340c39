package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.scenario.Transfer;

class DocumentRootTest {
    @TempDir
    Path tmp;

    @Test
    void oneFileOfTheRightSizePerStream() throws Exception {
        List<String> paths = DocumentRoot.prepare(tmp, new Transfer(3 << 20, 2));
        assertEquals(List.of("/data-3145728-1.bin", "/data-3145728-2.bin"), paths);
        for (String p : paths) {
            assertEquals(3 << 20, Files.size(tmp.resolve(p.substring(1))));
        }
        assertEquals(paths, DocumentRoot.prepare(tmp, new Transfer(3 << 20, 2)));
    }
}
