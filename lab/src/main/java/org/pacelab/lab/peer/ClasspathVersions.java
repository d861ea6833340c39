package org.pacelab.lab.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * Versions of libraries on the class path, from the files their jars carry (a shaded jar keeps those but not the
 * libraries' manifests): Maven's {@code pom.properties}, or a library's own version resource.
 */
final class ClasspathVersions {
    private ClasspathVersions() {}

    /** The version in {@code META-INF/maven/GROUP/ARTIFACT/pom.properties}, or "(version unknown)". */
    static String maven(String group, String artifact) {
        try (InputStream in = ClasspathVersions.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/" + group + "/" + artifact + "/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v.strip();
                }
            }
        } catch (IOException e) {
            // reported as unknown
        }
        return "(version unknown)";
    }

    /** The text of a one-line version resource (e.g. Kwik's {@code tech/kwik/core/version.properties}). */
    static String resource(String path) {
        try (InputStream in = ClasspathVersions.class.getClassLoader().getResourceAsStream(path)) {
            if (in != null) {
                String v = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                if (!v.isEmpty() && v.length() < 40) {
                    return v;
                }
            }
        } catch (IOException e) {
            // reported as unknown
        }
        return "(version unknown)";
    }
}
