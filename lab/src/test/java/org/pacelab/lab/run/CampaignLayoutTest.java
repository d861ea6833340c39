package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class CampaignLayoutTest {
    @Test
    void aRelativeCampaignDirectoryBecomesAbsoluteSoRunProcessesFindTheirFiles() {
        CampaignLayout layout = new CampaignLayout(Path.of("results", "..", "results", "quickstart"));
        Path expected = Path.of("").toAbsolutePath().resolve("results/quickstart");
        assertEquals(expected, layout.root());
        assertTrue(layout.store().isAbsolute());
        assertEquals(expected.resolve("scenario.yaml"), layout.scenarioCopy());
    }
}
