package org.pacelab.lab.scenario;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads YAML with Jackson's streaming YAML parser into {@link YamlNode}s that keep their line and column
 * (Jackson's tree model drops them). Duplicate keys are an error, since the second would silently win.
 */
public final class YamlTree {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    private YamlTree() {}

    /** Parses {@code text}; {@code file} names it in locations. An empty document is an empty mapping. */
    public static YamlNode parse(String file, String text) throws ScenarioException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new YamlNode.Mapping(new Location(file, 1, 1), Map.of());
            }
            YamlNode root = node(file, p, t);
            JsonToken extra = p.nextToken();
            if (extra != null) {
                throw new ScenarioException(at(file, p.currentTokenLocation()),
                        "a scenario file holds one YAML document; remove the second one (starting with ---)");
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            Location where = l == null ? new Location(file, 1, 1) : at(file, l);
            throw new ScenarioException(where, "not valid YAML: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ScenarioException(new Location(file, 1, 1), "cannot be read: " + e.getMessage());
        }
    }

    private static YamlNode node(String file, JsonParser p, JsonToken t) throws IOException, ScenarioException {
        Location here = at(file, p.currentTokenLocation());
        switch (t) {
            case START_OBJECT -> {
                Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    Location keyAt = at(file, p.currentTokenLocation());
                    YamlNode value = node(file, p, p.nextToken());
                    YamlNode.Entry previous = entries.put(key, new YamlNode.Entry(key, keyAt, value));
                    if (previous != null) {
                        throw new ScenarioException(keyAt, "key '" + key + "' appears twice in this mapping (first at line "
                                + previous.keyAt().line() + "); keep one");
                    }
                }
                return new YamlNode.Mapping(here, entries);
            }
            case START_ARRAY -> {
                List<YamlNode> items = new ArrayList<>();
                JsonToken i;
                while ((i = p.nextToken()) != JsonToken.END_ARRAY) {
                    items.add(node(file, p, i));
                }
                return new YamlNode.Sequence(here, items);
            }
            case VALUE_NULL -> {
                return new YamlNode.Scalar(here, null);
            }
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE, VALUE_EMBEDDED_OBJECT -> {
                return new YamlNode.Scalar(here, p.getText());
            }
            default -> throw new ScenarioException(here, "unexpected YAML token " + t);
        }
    }

    private static Location at(String file, JsonLocation l) {
        return new Location(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "syntax error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
