package org.pacelab.io.app;

import java.nio.file.Path;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.SyntheticContent;

/** What {@code pacelab server --root DIR} serves: synthetic {@code /bytes/N} bodies, else the files under DIR. */
public final class ServerContent {
    private ServerContent() {
    }

    /**
     * @throws IllegalArgumentException when {@code root} is not an existing directory
     */
    public static ContentSource of(Path root) {
        return new SyntheticContent(new FileTreeContent(root));
    }
}
