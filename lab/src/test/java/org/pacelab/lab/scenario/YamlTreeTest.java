package org.pacelab.lab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class YamlTreeTest {
    @Test
    void keepsLinesAndColumnsOfKeysAndValues() throws ScenarioException {
        YamlNode root = YamlTree.parse("f.yaml", "name: x\nlink:\n  preset: quic-steps\nlist: [a, b]\n");
        YamlNode.Mapping m = assertInstanceOf(YamlNode.Mapping.class, root);
        YamlNode.Entry link = m.entries().get("link");
        assertEquals(new Location("f.yaml", 2, 1), link.keyAt());
        YamlNode.Entry preset = assertInstanceOf(YamlNode.Mapping.class, link.value()).entries().get("preset");
        assertEquals(new Location("f.yaml", 3, 3), preset.keyAt());
        assertEquals(new Location("f.yaml", 3, 11), preset.value().at());
        assertEquals("quic-steps", assertInstanceOf(YamlNode.Scalar.class, preset.value()).text());
        YamlNode.Sequence list = assertInstanceOf(YamlNode.Sequence.class, m.entries().get("list").value());
        assertEquals(new Location("f.yaml", 4, 11), list.items().get(1).at());
    }

    @Test
    void keepsScalarTextAsWritten() throws ScenarioException {
        YamlNode.Mapping m = (YamlNode.Mapping) YamlTree.parse("f", "a: on\nb: 16\nc: ~\n");
        assertEquals("on", ((YamlNode.Scalar) m.entries().get("a").value()).text());
        assertEquals("16", ((YamlNode.Scalar) m.entries().get("b").value()).text());
        assertTrue(((YamlNode.Scalar) m.entries().get("c").value()).isNull());
    }

    @Test
    void duplicateKeyNamesBothPlaces() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> YamlTree.parse("f.yaml", "a: 1\nb: 2\na: 3\n"));
        assertEquals("f.yaml:3:1: key 'a' appears twice in this mapping (first at line 1); keep one", e.getMessage());
    }

    @Test
    void syntaxErrorNamesItsPlace() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> YamlTree.parse("f.yaml", "a: [1, 2\nb: 3\n"));
        assertTrue(e.getMessage().startsWith("f.yaml:"), e.getMessage());
        assertTrue(e.getMessage().contains("not valid YAML"), e.getMessage());
    }

    @Test
    void emptyDocumentIsAnEmptyMapping() throws ScenarioException {
        assertEquals(0, assertInstanceOf(YamlNode.Mapping.class, YamlTree.parse("f", "")).entries().size());
    }
}
