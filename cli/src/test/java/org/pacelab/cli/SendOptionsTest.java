package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.io.send.KernelSupport;
import org.pacelab.io.send.TxTimeClock;
import org.pacelab.quic.cc.CongestionAlgorithm;
import org.pacelab.quic.cc.SlowStartConfig;

/**
 * Send-strategy and transport options of {@code pacelab server}/{@code client}: a bad value is one sentence naming
 * the option and the valid values with exit code 2; a strategy the host cannot honour stops with its explanation.
 */
class SendOptionsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--send=foo|--send: 'foo' is not a send strategy; valid values are park, park-tight, hybrid, spin.",
            "--pacer=fq|--pacer: 'fq' is not a pacer; valid values are none, leaky-bucket, interval, token-bucket.",
            "--gso=0|--gso: 0 segments is out of range; valid: auto, 1 (off) to 64 (Linux UDP_MAX_SEGMENTS).",
            "--gso=46|--gso 46: 46 segments of 1452 bytes exceed the 65507-byte limit of one UDP GSO buffer; valid: at most 45 with datagrams of 1452 bytes.",
            "--txtime-clock=tai|--txtime-clock needs --txtime: it names the clock of the send times.",
            "--socket=kernel|--socket: 'kernel' is not a socket kind; valid values are jdk, native.",
            "--ciphers=rc4|--ciphers: 'rc4' is not a cipher suite; valid: aes128, aes256, chacha20",
            "--max-ack-ratio=-1|--max-ack-ratio -1 is negative; valid: 0 (do not ask the peer for fewer ACKs) or a number of packets per ACK"})
    void badValuesAreOneSentenceAndExitTwo(String option, String message) {
        for (String command : new String[] {"server", "client"}) {
            CliRun r = command.equals("server") ? CliRun.of("server", "--listen", "127.0.0.1:0", option)
                    : CliRun.of("client", option, "https://127.0.0.1:9/x");
            assertEquals(2, r.code(), r.err());
            assertEquals("pacelab " + command + ": " + message, r.firstErrorLine());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--slow-start=search|--cc=bbr|--slow-start search applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
            "--slow-start=onset-bdp|--cc=bbr|--slow-start onset-bdp applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
            "--slow-start=onset-bdp|--onset-delay=50us|--onset-delay: '50us' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
            "--slow-start=onset|--onset-delay=200ms|--onset-delay: '200ms' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
            "--slow-start=search|--search-threshold=1.5|--search-threshold: '1.5' is not a valid threshold; give a number above 0 and below 1 (draft-chung-ccwg-search-09 uses 0.26).",
            "--slow-start=hystart++|--onset-delay=2ms|--onset-delay is a parameter of --slow-start onset or --slow-start onset-bdp or --slow-start onset-bdp-queue, not of --slow-start hystart++; leave it out or select --slow-start onset or --slow-start onset-bdp or --slow-start onset-bdp-queue.",
            "--cc=newreno|--onset-delay=2ms|--onset-delay is a parameter of --slow-start onset or --slow-start onset-bdp or --slow-start onset-bdp-queue, not of --slow-start hystart++ (--cc newreno's default); leave it out or select --slow-start onset or --slow-start onset-bdp or --slow-start onset-bdp-queue.",
            "--cc=cubic|--hystart-l=8|--hystart-l is a parameter of --slow-start hystart++, not of --slow-start onset-bdp-queue (--cc cubic's default); leave it out or select --slow-start hystart++."})
    void slowStartErrorsAreOneSentenceAndExitTwo(String rule, String option, String message) {
        for (String command : new String[] {"server", "client", "sim"}) {
            CliRun r = switch (command) {
                case "server" -> CliRun.of("server", "--listen", "127.0.0.1:0", rule, option);
                case "client" -> CliRun.of("client", rule, option, "https://127.0.0.1:9/x");
                default -> CliRun.of("sim", "--out", System.getProperty("java.io.tmpdir") + "/pacelab-never-written", rule, option);
            };
            assertEquals(2, r.code(), r.err());
            assertEquals("pacelab " + command + ": " + message, r.firstErrorLine());
            assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), r.err());
        }
    }

    /** The help of every command with transport options names each controller's default rule, as the code has it. */
    @Test
    void helpNamesEachControllersDefaultSlowStart() {
        String defaults = "(default per --cc: " + java.util.stream.Stream.of(CongestionAlgorithm.CUBIC,
                        CongestionAlgorithm.NEWRENO, CongestionAlgorithm.BBR)
                .map(a -> a.optionValue() + " " + SlowStartConfig.defaultRule(a).optionValue())
                .collect(java.util.stream.Collectors.joining(", ")) + ").";
        for (String command : new String[] {"server", "client", "sim"}) {
            CliRun r = CliRun.of(command, "--help");
            assertEquals(0, r.code(), r.err());
            String help = r.out().replaceAll("\\s+", " ");
            assertTrue(help.contains(defaults), command + ": " + help);
            assertTrue(!help.contains("(default: hystart++)"), command);
        }
    }

    @Test
    void txtimeWithoutFqOrEtfStopsWithTheExplanation() throws Exception {
        Assumptions.assumeTrue(KernelSupport.whyTxTimeIgnored(InetAddress.getByName("127.0.0.1"), TxTimeClock.MONOTONIC) != null,
                "lo has an fq or etf qdisc on this host");
        CliRun server = CliRun.of("server", "--listen", "127.0.0.1:0", "--txtime");
        assertEquals(2, server.code());
        assertTrue(server.firstErrorLine().startsWith("pacelab server: --txtime: send times would be ignored: device lo"),
                server.err());
        CliRun client = CliRun.of("client", "--txtime", "--pacer", "interval", "https://127.0.0.1:9/x");
        assertEquals(2, client.code());
        assertTrue(client.firstErrorLine().startsWith("pacelab client: --txtime: send times toward 127.0.0.1:9 would be "
                + "ignored: device lo"), client.err());
        assertTrue(client.err().contains("would leave unpaced"), client.err());
        assertEquals(1, client.err().lines().count());
    }

    @Test
    void pacedGsoWithoutThePatchStopsWithTheExplanation() {
        Assumptions.assumeTrue(KernelSupport.whyNoPacedGsoPatch() != null, "this kernel carries the paced-GSO patch");
        CliRun r = CliRun.of("server", "--listen", "127.0.0.1:0", "--gso", "16", "--txtime", "--paced-gso");
        assertEquals(2, r.code());
        assertTrue(r.firstErrorLine().startsWith("pacelab server: --paced-gso: this kernel"), r.err());
        assertTrue(r.err().contains("UDP_SEGMENT_PACING_RATE"), r.err());
    }
}
