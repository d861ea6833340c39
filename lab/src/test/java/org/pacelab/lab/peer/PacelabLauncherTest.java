package org.pacelab.lab.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PacelabLauncherTest {
    private static final List<String> PREFIX = List.of("java", "-Xss4m", "-cp", "p.jar", "Main");

    @Test
    void optionsOfASubcommandFollowTheJavaBinaryOnlyForThatSubcommand() {
        PacelabLauncher l = new PacelabLauncher(PREFIX, Set.of("server", "client"), Map.of("server", List.of("-XX:AOTCache=s.aot")));
        assertEquals(List.of("java", "-XX:AOTCache=s.aot", "-Xss4m", "-cp", "p.jar", "Main", "server", "--listen", "x"),
                l.command(List.of("server", "--listen", "x")));
        assertEquals(List.of("java", "-Xss4m", "-cp", "p.jar", "Main", "client", "u"), l.command(List.of("client", "u")));
        assertEquals(PREFIX, l.command(List.of()));
    }

    @Test
    void withoutOptionsTheCommandIsThePrefixAndTheArguments() {
        PacelabLauncher l = new PacelabLauncher(PREFIX, Set.of("server")).withJvmOptionsFor(Map.of("client", List.of("-Xint")));
        assertEquals(List.of("java", "-Xss4m", "-cp", "p.jar", "Main", "server"), l.command(List.of("server")));
        assertEquals(PREFIX, l.withJvmOptionsFor(Map.of()).command(List.of()));
        assertEquals(List.of("java", "-Xss4m", "-cp", "p.jar", "Main", "server"),
                l.withJvmOptionsFor(Map.of()).command(List.of("server")));
    }
}
