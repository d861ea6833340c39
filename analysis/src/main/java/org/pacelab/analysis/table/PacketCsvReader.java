package org.pacelab.analysis.table;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.pacelab.analysis.metrics.RunDistributions;

/** Rebuilds a run's {@link RunDistributions} from the per-packet table written by {@link PacketCsvWriter}. */
public final class PacketCsvReader {
    private PacketCsvReader() {}

    public static RunDistributions read(Path file) throws IOException {
        RunDistributions d = RunDistributions.empty();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            if (header == null) {
                throw new IOException(file + ":1: empty file; expected the header " + PacketCsvWriter.HEADER);
            }
            List<String> cols = Arrays.asList(header.split(",", -1));
            int dir = require(cols, "dir", file);
            int ipg = require(cols, "ipg_ns", file);
            int train = require(cols, "train", file);
            int trainLength = require(cols, "train_length", file);
            int delay = require(cols, "send_delay_ns", file);
            long lastTrain = -1;
            String line;
            long lineNo = 1;
            String[] f = new String[cols.size()];
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isEmpty()) {
                    continue;
                }
                if (split(line, f) != cols.size()) {
                    throw new IOException(file + ":" + lineNo + ": expected " + cols.size() + " columns, found "
                            + line.split(",", -1).length);
                }
                if (!f[dir].equals("s2c")) {
                    continue;
                }
                if (!f[ipg].isEmpty()) {
                    d.gaps().record(parse(f[ipg], file, lineNo, "ipg_ns"));
                }
                long t = parse(f[train], file, lineNo, "train");
                if (t != lastTrain) {
                    d.trains().addTrain((int) parse(f[trainLength], file, lineNo, "train_length"));
                    lastTrain = t;
                }
                if (!f[delay].isEmpty()) {
                    d.sendDelays().record(parse(f[delay], file, lineNo, "send_delay_ns"));
                }
            }
        }
        return d;
    }

    private static int split(String line, String[] out) {
        int n = 0;
        int from = 0;
        while (true) {
            int comma = line.indexOf(',', from);
            if (n == out.length) {
                return n + 1;
            }
            if (comma < 0) {
                out[n++] = line.substring(from);
                return n;
            }
            out[n++] = line.substring(from, comma);
            from = comma + 1;
        }
    }

    private static int require(List<String> cols, String name, Path file) throws IOException {
        int i = cols.indexOf(name);
        if (i < 0) {
            throw new IOException(file + ":1: the header lacks column " + name + "; expected " + PacketCsvWriter.HEADER);
        }
        return i;
    }

    private static long parse(String s, Path file, long line, String column) throws IOException {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IOException(file + ":" + line + ": column " + column + " must be an integer, found '" + s + "'");
        }
    }
}
