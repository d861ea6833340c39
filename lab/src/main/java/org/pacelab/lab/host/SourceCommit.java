package org.pacelab.lab.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The commit the running pacelab was built from, for the provenance of interop results, the header of reproduction
 * reports and {@code pacelab --version}: the line {@code scripts/build-commit.sh} printed when {@code ./pacelab} built
 * the jar (HEAD's short hash, with {@code +dirty} when the jar's sources — a module's {@code src/main}, the poms —
 * differed from it), which the build puts into {@value #RESOURCE}. It is read from the build, never from the checkout:
 * by the time a result is written, HEAD may have moved on or the work tree changed, and the jar is still what it was. A
 * build that did not record it (Maven run directly) says {@code unknown (…)} and why.
 */
public final class SourceCommit {
    static final String RESOURCE = "build-commit.properties";

    private SourceCommit() {}

    /** The commit of the build this class was loaded from. */
    public static String ofThisBuild() {
        try (InputStream in = SourceCommit.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown (this build has no " + RESOURCE + ")";
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return "unknown (" + RESOURCE + " cannot be read: " + e.getMessage() + ")";
        }
    }

    /** The commit in the text of {@value #RESOURCE}. */
    static String parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            return "unknown (" + RESOURCE + " is not a properties file: " + e.getMessage() + ")";
        }
        String commit = p.getProperty("commit", "").strip();
        if (commit.isEmpty()) {
            return "unknown (" + RESOURCE + " names no commit)";
        }
        if (commit.contains("${")) {
            return "unknown (" + RESOURCE + " was copied without Maven's filtering, which fills in the commit)";
        }
        return commit;
    }
}
