package org.pacelab.lab.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine a campaign ran on, as recorded with its results: kernel, distribution, CPU, memory, JDK, socket
 * buffer limits and clock source. Peer versions and the campaign's options are added by the runner.
 */
public final class EnvironmentRecord {
    private EnvironmentRecord() {}

    public static Map<String, String> collect(Host host) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("recorded_at", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        m.put("kernel", host.kernelRelease());
        m.put("os", osName());
        m.put("cpu", cpuModel());
        m.put("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("memory", memTotal());
        m.put("jdk", Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        m.put("net.core.rmem_max", Host.readFirstLine(Path.of("/proc/sys/net/core/rmem_max"), "unknown"));
        m.put("net.core.wmem_max", Host.readFirstLine(Path.of("/proc/sys/net/core/wmem_max"), "unknown"));
        m.put("clocksource", Host.readFirstLine(
                Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource"), "unknown"));
        m.put("root", Boolean.toString(host.isRoot()));
        return m;
    }

    private static String osName() {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return line.substring("PRETTY_NAME=".length()).replace("\"", "");
                }
            }
        } catch (IOException e) {
            // fall back to the JDK's view
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static String cpuModel() {
        return grep(Path.of("/proc/cpuinfo"), "model name", System.getProperty("os.arch"));
    }

    private static String memTotal() {
        return grep(Path.of("/proc/meminfo"), "MemTotal", "unknown");
    }

    private static String grep(Path file, String key, String dflt) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String l : lines) {
                if (l.startsWith(key)) {
                    int colon = l.indexOf(':');
                    return colon < 0 ? l.strip() : l.substring(colon + 1).strip();
                }
            }
        } catch (IOException e) {
            // not on Linux
        }
        return dflt;
    }
}
