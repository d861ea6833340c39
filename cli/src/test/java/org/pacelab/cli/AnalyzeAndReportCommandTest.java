package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzeAndReportCommandTest {
    @TempDir
    Path dir;

    /** A raw-IPv4 pcap: a server at 10.0.0.1:9000 sends UDP datagrams to 10.0.0.2:40000 at the given µs. */
    private Path capture(String name, long... micros) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(24 + micros.length * (16 + 128)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(101);
        for (long us : micros) {
            b.putInt((int) (1_700_000_000 + us / 1_000_000)).putInt((int) (us % 1_000_000)).putInt(128).putInt(128);
            ByteBuffer ip = ByteBuffer.allocate(128);
            ip.put((byte) 0x45).put((byte) 0).putShort((short) 128).putInt(0).put((byte) 64).put((byte) 17).putShort((short) 0)
                    .put(new byte[] {10, 0, 0, 1}).put(new byte[] {10, 0, 0, 2})
                    .putShort((short) 9000).putShort((short) 40000).putShort((short) 108).putShort((short) 0);
            b.put(ip.array());
        }
        return Files.write(dir.resolve(name), b.array());
    }

    @Test
    void badThresholdIsOneSentenceAndExitCode2() throws IOException {
        Path cap = capture("a.pcap", 0, 10);
        CliRun r = CliRun.of("analyze", cap.toString(), "--threshold", "5parsecs");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--threshold") && r.err().contains("ms"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }

    @Test
    void missingCaptureIsNamed() {
        CliRun r = CliRun.of("analyze", dir.resolve("nope.pcap").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("nope.pcap") && r.err().contains("no such file"), r.err());
    }

    @Test
    void analyzeWritesTheRunDirectoryAndReportReadsIt() throws IOException {
        Path a = capture("a.pcap", 0, 50, 100, 1000, 1050);   // trains {0,50,100} {1000,1050}
        Path b = capture("b.pcap", 0, 500, 1000, 1500);       // four packets alone
        CliRun ra = CliRun.of("analyze", a.toString(), "--server-port", "9000", "--bytes", "1kb", "--out",
                dir.resolve("results/bursty/1").toString());
        assertEquals(0, ra.code(), ra.err());
        assertTrue(ra.out().contains("protocol                 udp") && ra.out().contains("trains                   2"), ra.out());
        assertTrue(Files.isRegularFile(dir.resolve("results/bursty/1/summary.json")));
        assertTrue(Files.isRegularFile(dir.resolve("results/bursty/1/packets.csv")));
        Files.createDirectories(dir.resolve("results/paced/1"));
        CliRun rb = CliRun.of("analyze", b.toString(), "--server-port", "9000", "--json", "-", "--packets-csv",
                dir.resolve("results/paced/1/packets.csv").toString());
        assertEquals(0, rb.code(), rb.err());
        assertTrue(rb.out().contains("\"ptl1_share\" : 1.0"), rb.out());
        Files.writeString(dir.resolve("results/paced/1/summary.json"), rb.out());

        CliRun rep = CliRun.of("report", "--out", dir.resolve("report").toString(), "--results", dir.resolve("results").toString());
        assertEquals(0, rep.code(), rep.err());
        assertTrue(rep.out().contains("bursty") && rep.out().contains("paced"), rep.out());
        assertTrue(Files.readString(dir.resolve("report/index.html")).contains("<svg"));

        CliRun bad = CliRun.of("report", "--out", dir.resolve("r2").toString(), "justaname");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("NAME=RUN_DIR"), bad.err());
        CliRun none = CliRun.of("report", "--out", dir.resolve("r3").toString());
        assertEquals(2, none.code());
    }
}
