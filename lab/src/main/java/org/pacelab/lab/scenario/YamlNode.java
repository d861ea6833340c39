package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Map;

/** A YAML node that remembers where it was written, so that every error can name file:line:column. */
public sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {
    Location at();

    /** "a value", "a list" or "a mapping", for error messages. */
    String kind();

    /** A scalar: its text as written ({@code null} for YAML's null). */
    record Scalar(Location at, String text) implements YamlNode {
        public boolean isNull() {
            return text == null;
        }

        @Override
        public String kind() {
            return "a value";
        }
    }

    record Sequence(Location at, List<YamlNode> items) implements YamlNode {
        @Override
        public String kind() {
            return "a list";
        }
    }

    /** A mapping with its keys in file order; each entry knows where its key was written. */
    record Mapping(Location at, Map<String, Entry> entries) implements YamlNode {
        @Override
        public String kind() {
            return "a mapping";
        }
    }

    record Entry(String key, Location keyAt, YamlNode value) {}
}
