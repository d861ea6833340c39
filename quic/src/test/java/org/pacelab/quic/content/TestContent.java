package org.pacelab.quic.content;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Content for tests: {@code /bytes/N} plus fixed files; records every target looked up. */
public final class TestContent implements ContentSource {
    public final Map<String, byte[]> files = new HashMap<>();
    public final List<String> lookups = new ArrayList<>();
    private final SyntheticContent synthetic = new SyntheticContent(this::file);

    @Override
    public Content open(String target) {
        lookups.add(target);
        return synthetic.open(target);
    }

    private Content file(String target) {
        byte[] b = files.get(target);
        return b == null ? new Content.Refused(404, "no file at " + target) : new Content.Found(new ByteArrayBody(b));
    }

    /** The expected body of {@code /bytes/n}. */
    public static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = BytePattern.at(i);
        }
        return b;
    }
}
