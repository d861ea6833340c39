package org.pacelab.lab.interop;

import static org.pacelab.lab.interop.CheckResult.failed;
import static org.pacelab.lab.interop.CheckResult.succeeded;
import static org.pacelab.lab.interop.CheckResult.unsupported;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.pacelab.lab.interop.InteropCase.Family;
import org.pacelab.lab.interop.Trace.Direction;
import org.pacelab.net.relay.Rebinding;

/**
 * The QUIC Interop Runner's test cases ({@code testcases_quic.py}, {@code TESTCASES_QUIC}) with their checks, and the
 * ns-3 scenarios they run in (quic-network-simulator {@code sim/scenarios}) expressed as pacelab link overrides: every
 * case starts from {@code simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25} (pacelab's
 * {@code interop-simple-p2p} preset). Checks read the server-side tap with Wireshark and the downloaded files, and
 * give the runner's reason for every failure.
 */
public final class InteropCases {
    private static final long KB = 1 << 10;
    private static final long MB = 1 << 20;
    private static final String V1 = "0x1";
    private static final String V2 = "0x6b3343cf";
    private static final String H3 = "h3";
    private static final String HQ = "hq-interop";
    private static final int DEFAULT_TIMEOUT = 60;
    /** Rate and burst the runner's drop-rate and corrupt-rate scenarios use in both directions (L1/C1 and L2/C2). */
    private static final String HANDSHAKE_LOSS = "loss=30%,burst=3";
    private static final String TRANSFER_LOSS = "loss=2%,burst=3";
    private static final String HANDSHAKE_CORRUPTION = "corrupt=30%,burst=3,within=50b,change=byte";
    private static final String TRANSFER_CORRUPTION = "corrupt=2%,burst=3,within=50b,change=byte";
    private static final int ZERO_RTT_FILES = 40;
    private static final int ZERO_RTT_NAME = 250;

    private static final Map<String, InteropCase> CASES = new LinkedHashMap<>();

    static {
        add(simple("handshake", "H", "Handshake completes successfully.", "handshake", CaseFiles.of(KB), InteropCases::checkHandshake));
        add(simple("transfer", "DC", "Stream data is being sent and received correctly. Connection close completes with a zero error code.",
                "transfer", CaseFiles.of(2 * MB, 3 * MB, 5 * MB), InteropCases::checkTransfer));
        add(new InteropCase("longrtt", "LR", "Handshake completes when RTT is long.", "handshake", "handshake", CaseFiles.of(KB),
                "delay=750ms", "delay=750ms", Rebinding.NONE, Family.IPV4, false, 1, DEFAULT_TIMEOUT, HQ, InteropCases::checkLongRtt));
        add(simple("chacha20", "C20", "Handshake completes using ChaCha20.", "chacha20", CaseFiles.of(3 * MB), InteropCases::checkChaCha20));
        add(simple("multiplexing", "M", "Thousands of files are transferred over a single connection, and server increased stream "
                + "limits to accomodate client requests.", "transfer", CaseFiles.many(1999, 32, 12), InteropCases::checkMultiplexing));
        add(simple("retry", "S", "Server sends a Retry, and a subsequent connection using the Retry token completes successfully.",
                "retry", CaseFiles.of(10 * KB), InteropCases::checkRetry));
        add(simple("resumption", "R", "Connection is established using TLS Session Resumption.", "resumption",
                CaseFiles.of(5 * KB, 10 * KB), InteropCases::checkResumption));
        add(simple("zerortt", "Z", "0-RTT data is being sent and acted on.", "zerortt",
                CaseFiles.many(ZERO_RTT_FILES, 32, ZERO_RTT_NAME), InteropCases::checkZeroRtt));
        add(new InteropCase("http3", "3", "An H3 transaction succeeded.", "http3", "http3", CaseFiles.of(5 * KB, 10 * KB, 500 * KB),
                null, null, Rebinding.NONE, Family.IPV4, false, 1, DEFAULT_TIMEOUT, H3, InteropCases::checkTransfer));
        add(new InteropCase("blackhole", "B", "Transfer succeeds despite underlying network blacking out for a few seconds.",
                "transfer", "transfer", CaseFiles.of(10 * MB), "blackhole=5s/2s", "blackhole=5s/2s", Rebinding.NONE, Family.IPV4,
                false, 1, DEFAULT_TIMEOUT, HQ, InteropCases::checkTransfer));
        add(new InteropCase("keyupdate", "U", "One of the two endpoints updates keys and the peer responds correctly.", "transfer",
                "keyupdate", CaseFiles.of(3 * MB), null, null, Rebinding.NONE, Family.IPV4, false, 1, DEFAULT_TIMEOUT, HQ,
                InteropCases::checkKeyUpdate));
        add(simple("ecn", "E", "Explicit Congestion Notification: both endpoints mark their packets ECT and report ECN counts.",
                "ecn", CaseFiles.of(100 * KB), InteropCases::checkEcn));
        add(new InteropCase("amplificationlimit", "A", "The server obeys the 3x amplification limit.", "transfer", "transfer",
                CaseFiles.of(5 * KB), null, "drops=2-7", Rebinding.NONE, Family.IPV4, false, 9, DEFAULT_TIMEOUT, HQ,
                InteropCases::checkAmplificationLimit));
        add(new InteropCase("handshakeloss", "L1", "Handshake completes under extreme packet loss.", "multiconnect", "multiconnect",
                CaseFiles.many(50, KB, 12), HANDSHAKE_LOSS, HANDSHAKE_LOSS, Rebinding.NONE, Family.IPV4, false, 1, 300, HQ,
                run -> checkMultiConnect(run, 50)));
        add(new InteropCase("transferloss", "L2", "Transfer completes under moderate packet loss.", "transfer", "transfer",
                CaseFiles.of(2 * MB), TRANSFER_LOSS, TRANSFER_LOSS, Rebinding.NONE, Family.IPV4, false, 1, DEFAULT_TIMEOUT, HQ,
                InteropCases::checkTransfer));
        add(new InteropCase("handshakecorruption", "C1", "Handshake completes under extreme packet corruption.", "multiconnect",
                "multiconnect", CaseFiles.many(50, KB, 12), HANDSHAKE_CORRUPTION, HANDSHAKE_CORRUPTION, Rebinding.NONE, Family.IPV4,
                false, 1, 300, HQ, run -> checkMultiConnect(run, 50)));
        add(new InteropCase("transfercorruption", "C2", "Transfer completes under moderate packet corruption.", "transfer", "transfer",
                CaseFiles.of(2 * MB), TRANSFER_CORRUPTION, TRANSFER_CORRUPTION, Rebinding.NONE, Family.IPV4, false, 1,
                DEFAULT_TIMEOUT, HQ, InteropCases::checkTransfer));
        add(new InteropCase("ipv6", "6", "A transfer across an IPv6-only network succeeded.", "transfer", "transfer",
                CaseFiles.of(5 * KB, 10 * KB), null, null, Rebinding.NONE, Family.IPV6, false, 1, DEFAULT_TIMEOUT, HQ,
                InteropCases::checkIpv6));
        add(simple("v2", "V2", "Server should select QUIC v2 in compatible version negotiation.", "v2", CaseFiles.of(KB),
                InteropCases::checkV2));
        add(new InteropCase("rebind-port", "BP", "Transfer completes under frequent port rebindings on the client side.", "transfer",
                "transfer", CaseFiles.of(10 * MB), null, null, new Rebinding(1_000_000_000L, 5_000_000_000L, false), Family.IPV4,
                false, 1, DEFAULT_TIMEOUT, HQ, InteropCases::checkPortRebinding));
        add(new InteropCase("rebind-addr", "BA", "Transfer completes under frequent IP address and port rebindings on the client side.",
                "transfer", "transfer", CaseFiles.of(10 * MB), null, null, new Rebinding(1_000_000_000L, 5_000_000_000L, true),
                Family.IPV4, false, 1, DEFAULT_TIMEOUT, HQ, InteropCases::checkAddressRebinding));
        add(new InteropCase("connectionmigration", "CM", "A transfer succeeded during which the client performed an active migration.",
                "connectionmigration", "transfer", CaseFiles.of(2 * MB), null, null, Rebinding.NONE, Family.IPV4, true, 1,
                DEFAULT_TIMEOUT, HQ, InteropCases::checkConnectionMigration));
    }

    private InteropCases() {}

    private static InteropCase simple(String name, String abbreviation, String description, String testname, CaseFiles files,
                                      InteropCase.Check check) {
        return new InteropCase(name, abbreviation, description, testname, testname, files, null, null, Rebinding.NONE, Family.IPV4,
                false, 1, DEFAULT_TIMEOUT, HQ, check);
    }

    private static void add(InteropCase c) {
        CASES.put(c.name(), c);
    }

    /** Every case, in the runner's order. */
    public static List<InteropCase> all() {
        return List.copyOf(CASES.values());
    }

    public static Optional<InteropCase> get(String name) {
        return Optional.ofNullable(CASES.get(name.toLowerCase(Locale.ROOT)));
    }

    public static List<String> names() {
        return List.copyOf(CASES.keySet());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Checks, after the runner's (testcase.py, testcases_quic.py)
    // ---------------------------------------------------------------------------------------------------------------

    /** Distinct SCIDs of the server's Initial packets: one per handshake (the runner's {@code _count_handshakes}). */
    static int handshakes(Trace t) {
        return Trace.distinct(t.initial(Direction.FROM_SERVER), "quic.scid").size();
    }

    /** The runner's {@code _check_version_and_files}: the server's Initials all QUIC v1, and the files intact. */
    static String versionAndFiles(CaseRun run) throws IOException, InterruptedException {
        Set<String> versions = versions(run.trace().initial(Direction.FROM_SERVER));
        if (versions.size() != 1) {
            return "expected exactly one QUIC version in the server's Initial packets, got " + (versions.isEmpty() ? "none" : versions);
        }
        if (!versions.contains(V1)) {
            return "wrong version: expected " + V1 + ", got " + versions;
        }
        return run.filesProblem();
    }

    static Set<String> versions(List<QuicPacket> packets) {
        Set<String> out = new LinkedHashSet<>();
        for (QuicPacket p : packets) {
            out.add("0x" + Long.toHexString(p.version()));
        }
        return out;
    }

    private static CheckResult oneHandshakeAndFiles(CaseRun run) throws IOException, InterruptedException {
        int n = handshakes(run.trace());
        if (n != 1) {
            return failed("expected exactly 1 handshake, got " + n);
        }
        String p = versionAndFiles(run);
        return p == null ? null : failed(p);
    }

    static CheckResult checkHandshake(CaseRun run) throws IOException, InterruptedException {
        String p = versionAndFiles(run);
        if (p != null) {
            return failed(p);
        }
        if (!run.trace().retry().isEmpty()) {
            return failed("did not expect a Retry to be sent");
        }
        int n = handshakes(run.trace());
        return n == 1 ? succeeded("1 handshake, files intact") : failed("expected exactly 1 handshake, got " + n);
    }

    static CheckResult checkTransfer(CaseRun run) throws IOException, InterruptedException {
        CheckResult r = oneHandshakeAndFiles(run);
        return r != null ? r : succeeded("1 handshake, " + run.testCase().files().sizes().size() + " files intact");
    }

    static CheckResult checkLongRtt(CaseRun run) throws IOException, InterruptedException {
        CheckResult r = oneHandshakeAndFiles(run);
        if (r != null) {
            return r;
        }
        int clientHellos = 0;
        for (QuicPacket p : run.trace().initial(Direction.FROM_CLIENT)) {
            if (p.has("tls.handshake.type")) {
                if (p.all("tls.handshake.type").contains("1")) {
                    clientHellos++;
                }
            } else if (p.has("quic.retransmission") || p.has("quic.overlap")) {
                clientHellos++;
            }
        }
        return clientHellos >= 2 ? succeeded(clientHellos + " ClientHellos sent (the first one retransmitted)")
                : failed("expected at least 2 ClientHellos, got " + clientHellos);
    }

    static CheckResult checkChaCha20(CaseRun run) throws IOException, InterruptedException {
        int n = handshakes(run.trace());
        if (n != 1) {
            return failed("expected exactly 1 handshake, got " + n);
        }
        Set<String> offered = new LinkedHashSet<>();
        for (QuicPacket p : run.trace().initial(Direction.FROM_CLIENT)) {
            if (p.all("tls.handshake.type").contains("1")) {
                offered.add(String.join(",", p.all("tls.handshake.ciphersuite")));
            }
        }
        if (offered.size() != 1 || !(offered.contains("0x1303") || offered.contains("4867"))) {
            return failed("expected only ChaCha20 (0x1303) to be offered, got " + (offered.isEmpty() ? "no ClientHello" : offered));
        }
        String p = versionAndFiles(run);
        return p == null ? succeeded("only TLS_CHACHA20_POLY1305_SHA256 offered, files intact") : failed(p);
    }

    static CheckResult checkMultiplexing(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        CheckResult r = oneHandshakeAndFiles(run);
        if (r != null) {
            return r;
        }
        Long limit = null;
        for (QuicPacket p : run.trace().handshake(Direction.FROM_SERVER)) {
            String v = p.first("tls.quic.parameter.initial_max_streams_bidi");
            if (v != null) {
                limit = Long.parseLong(v);
                if (limit > 1000) {
                    return failed("the server set a bidirectional stream limit of " + limit + " (more than 1000), so the client "
                            + "never had to wait for MAX_STREAMS");
                }
            }
        }
        return limit == null ? failed("could not find the server's initial_max_streams_bidi transport parameter")
                : succeeded(run.testCase().files().sizes().size() + " files over 1 connection, server stream limit " + limit);
    }

    static CheckResult checkRetry(CaseRun run) throws IOException, InterruptedException {
        CheckResult r = oneHandshakeAndFiles(run);
        if (r != null) {
            return r;
        }
        Set<String> tokens = new HashSet<>();
        for (QuicPacket p : run.trace().of(QuicPacket.Type.RETRY, Direction.FROM_SERVER)) {
            String t = p.first("quic.retry_token");
            if (t == null) {
                return failed("a Retry packet has no retry token");
            }
            tokens.add(t.replace(":", ""));
        }
        if (tokens.isEmpty()) {
            return failed("did not find any Retry packet");
        }
        long highestBeforeRetry = -1;
        for (QuicPacket p : run.trace().initial(Direction.FROM_CLIENT)) {
            long pn = Long.parseLong(p.first("quic.packet_number") == null ? "-1" : p.first("quic.packet_number"));
            if ("0".equals(p.first("quic.token_length"))) {
                highestBeforeRetry = Math.max(highestBeforeRetry, pn);
                continue;
            }
            if (pn <= highestBeforeRetry) {
                return failed("the client reset its packet number to " + pn + " after the Retry");
            }
            String token = p.first("quic.token");
            if (token != null && tokens.contains(token.replace(":", ""))) {
                return succeeded("Retry sent; the client's next Initial carried its token");
            }
        }
        return failed("did not find any Initial packet using a Retry token");
    }

    static CheckResult checkResumption(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        int n = handshakes(run.trace());
        if (n != 2) {
            return failed("expected exactly 2 handshakes, got " + n);
        }
        List<QuicPacket> hs = run.trace().handshake(Direction.FROM_SERVER);
        if (hs.isEmpty()) {
            return failed("no Handshake packets from the server");
        }
        String first = hs.getFirst().first("quic.scid");
        String last = hs.getLast().first("quic.scid");
        boolean firstHasCert = false;
        for (QuicPacket p : hs) {
            String scid = p.first("quic.scid");
            boolean cert = p.has("tls.handshake.certificates_length");
            if (java.util.Objects.equals(scid, first)) {
                firstHasCert |= cert;
            } else if (java.util.Objects.equals(scid, last)) {
                if (cert) {
                    return failed("the server sent a Certificate message in the second handshake (no resumption)");
                }
            } else {
                return failed("found a Handshake packet that belongs to neither the first nor the second handshake");
            }
        }
        if (!firstHasCert) {
            return failed("did not find a Certificate message in the first handshake");
        }
        String p = versionAndFiles(run);
        return p == null ? succeeded("second handshake resumed without a Certificate, files intact") : failed(p);
    }

    static CheckResult checkZeroRtt(CaseRun run) throws IOException, InterruptedException {
        int n = handshakes(run.trace());
        if (n != 2) {
            return failed("expected exactly 2 handshakes, got " + n);
        }
        String p = versionAndFiles(run);
        if (p != null) {
            return failed(p);
        }
        long zeroRtt = run.trace().zeroRtt().stream().mapToLong(QuicPacket::payloadBytes).sum();
        long oneRtt = run.trace().oneRtt(Direction.FROM_CLIENT).stream().mapToLong(QuicPacket::payloadBytes).sum();
        if (zeroRtt == 0) {
            return failed("the client did not send any 0-RTT data");
        }
        if (oneRtt > 0.5 * ZERO_RTT_NAME * ZERO_RTT_FILES) {
            return failed("the client sent too much data in 1-RTT packets (" + oneRtt + " bytes; at most "
                    + (ZERO_RTT_NAME * ZERO_RTT_FILES / 2) + " allowed)");
        }
        return succeeded(zeroRtt + " bytes of 0-RTT payload, " + oneRtt + " of 1-RTT from the client");
    }

    static CheckResult checkKeyUpdate(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        CheckResult r = oneHandshakeAndFiles(run);
        if (r != null) {
            return r;
        }
        long[] client = phases(run.trace().oneRtt(Direction.FROM_CLIENT));
        long[] server = phases(run.trace().oneRtt(Direction.FROM_SERVER));
        String counts = "client sent " + client[0] + " packets in key phase 0 and " + client[1] + " in phase 1, server "
                + server[0] + " and " + server[1];
        return client[1] > 0 && server[1] > 0 ? succeeded(counts)
                : failed("expected packets with key phase 1 from both client and server; " + counts);
    }

    private static long[] phases(List<QuicPacket> packets) {
        long[] n = new long[2];
        for (QuicPacket p : packets) {
            String kp = p.first("quic.key_phase");
            n[kp != null && (kp.equals("1") || kp.equalsIgnoreCase("true")) ? 1 : 0]++;
        }
        return n;
    }

    static CheckResult checkEcn(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        CheckResult h = checkHandshake(run);
        if (!h.ok()) {
            return h;
        }
        List<QuicPacket> client = run.trace().datagrams(Direction.FROM_CLIENT);
        List<QuicPacket> server = run.trace().datagrams(Direction.FROM_SERVER);
        long[] ce = ecnCounts(client), se = ecnCounts(server);
        boolean clientMarked = ce[1] + ce[2] > 0, serverMarked = se[1] + se[2] > 0;
        boolean clientAllOk = ce[3] == 0 && clientMarked, serverAllOk = se[3] == 0 && serverMarked;
        boolean clientAcksEcn = run.trace().all(Direction.FROM_CLIENT).stream().anyMatch(p -> p.has("quic.ack.ect0_count"));
        boolean serverAcksEcn = run.trace().all(Direction.FROM_SERVER).stream().anyMatch(p -> p.has("quic.ack.ect0_count"));
        List<String> problems = new ArrayList<>();
        if (!clientMarked) {
            problems.add("the client did not mark any packet ECT(0) or ECT(1)");
        } else if (!serverAcksEcn) {
            problems.add("the server did not send any ACK frame with ECN counts");
        } else if (!clientAllOk) {
            problems.add("not all client packets were consistently marked ECT(0) or ECT(1)");
        }
        if (!serverMarked) {
            problems.add("the server did not mark any packet ECT(0) or ECT(1)");
        } else if (!clientAcksEcn) {
            problems.add("the client did not send any ACK frame with ECN counts");
        } else if (!serverAllOk) {
            problems.add("not all server packets were consistently marked ECT(0) or ECT(1)");
        }
        String counts = "client datagrams Not-ECT/ECT(1)/ECT(0)/CE " + ce[0] + "/" + ce[1] + "/" + ce[2] + "/" + ce[3] + ", server "
                + se[0] + "/" + se[1] + "/" + se[2] + "/" + se[3];
        if (clientAllOk && serverAllOk && clientAcksEcn && serverAcksEcn) {
            return succeeded(counts + "; both sent ACK frames with ECN counts");
        }
        return failed(String.join("; ", problems) + " (" + counts + ")");
    }

    private static long[] ecnCounts(List<QuicPacket> datagrams) {
        long[] n = new long[4];
        for (QuicPacket p : datagrams) {
            n[p.datagram().ecn() & 3]++;
        }
        return n;
    }

    static CheckResult checkAmplificationLimit(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        CheckResult r = oneHandshakeAndFiles(run);
        if (r != null) {
            return r;
        }
        long maxOffset = 0;
        for (QuicPacket p : run.trace().handshake(Direction.FROM_SERVER)) {
            List<String> offsets = p.all("quic.crypto.offset");
            List<String> lengths = p.all("quic.crypto.length");
            for (int i = 0; i < Math.min(offsets.size(), lengths.size()); i++) {
                maxOffset = Math.max(maxOffset, Long.parseLong(offsets.get(i)) + Long.parseLong(lengths.get(i)));
            }
        }
        if (maxOffset < 7500) {
            return failed("the server sent too little Handshake CRYPTO data (" + maxOffset + " bytes): not the 9-certificate chain?");
        }
        long allowed = 0, tolerance = 0, clientSent = 0, serverSent = 0;
        for (QuicPacket p : run.trace().datagrams(Direction.ALL)) {
            if (p.type() == QuicPacket.Type.VERSION_NEGOTIATION) {
                return failed("did not expect a Version Negotiation packet");
            }
            if (p.type() == QuicPacket.Type.INVALID) {
                return failed("could not determine the type of packet " + p.datagram().frame());
            }
            long size = p.datagram().udpLength() - 8;
            if (!p.fromServer()) {
                if (p.type() == QuicPacket.Type.HANDSHAKE) {
                    return succeeded("the server sent " + serverSent + " bytes for the client's " + clientSent
                            + " before the client's first Handshake packet (at most 3x), with " + maxOffset + " bytes of Handshake CRYPTO data");
                }
                if (p.type() == QuicPacket.Type.INITIAL) {
                    clientSent += size;
                    allowed += 3 * size;
                    tolerance += 4 * size;
                }
            } else {
                serverSent += size;
                if (size >= tolerance) {
                    return failed("the server violated the amplification limit: it sent " + serverSent + " bytes after receiving "
                            + clientSent + " (more than 4x) before the client's address was validated");
                }
                allowed -= size;
                tolerance -= size;
            }
        }
        return failed("the trace has no Handshake packet from the client, so the end of address validation was not seen");
    }

    static CheckResult checkMultiConnect(CaseRun run, int connections) throws IOException, InterruptedException {
        int n = handshakes(run.trace());
        if (n != connections) {
            return failed("expected " + connections + " handshakes, got " + n);
        }
        String p = versionAndFiles(run);
        return p == null ? succeeded(connections + " handshakes, files intact") : failed(p);
    }

    static CheckResult checkIpv6(CaseRun run) throws IOException, InterruptedException {
        CheckResult r = checkTransfer(run);
        if (!r.ok()) {
            return r;
        }
        long v4 = run.trace().datagrams(Direction.FROM_SERVER).stream().filter(p -> !p.datagram().ipv6()).count();
        return v4 == 0 ? succeeded("transfer over IPv6 only, files intact") : failed("the trace has " + v4 + " IPv4 packets from the server");
    }

    static CheckResult checkV2(CaseRun run) throws IOException, InterruptedException {
        Trace t = run.trace();
        Set<String> clientInitial = versions(t.initial(Direction.FROM_CLIENT));
        if (!clientInitial.contains(V1)) {
            return failed("wrong version in the client's Initial: expected " + V1 + ", got " + clientInitial);
        }
        Set<String> serverInitial = versions(t.initial(Direction.FROM_SERVER));
        if (!serverInitial.contains(V2)) {
            return failed("wrong version in the server's Initial: expected " + V2 + " (QUIC v2), got " + serverInitial);
        }
        Set<String> clientHandshake = versions(t.handshake(Direction.FROM_CLIENT));
        if (!clientHandshake.equals(Set.of(V2))) {
            return failed("expected only QUIC v2 in the client's Handshake packets, got " + clientHandshake);
        }
        Set<String> serverHandshake = versions(t.handshake(Direction.FROM_SERVER));
        if (!serverHandshake.equals(Set.of(V2))) {
            return failed("expected only QUIC v2 in the server's Handshake packets, got " + serverHandshake);
        }
        String p = run.filesProblem();
        return p == null ? succeeded("compatible version negotiation from v1 to v2, files intact") : failed(p);
    }

    static CheckResult checkPortRebinding(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        CheckResult r = checkTransfer(run);
        if (!r.ok()) {
            return r;
        }
        return paths(run);
    }

    /** The runner's path check: a PATH_CHALLENGE in the server's first packet on every new path, each one answered. */
    private static CheckResult paths(CaseRun run) throws IOException, InterruptedException {
        String last = null;
        Set<String> paths = new LinkedHashSet<>();
        Set<String> challenges = new LinkedHashSet<>();
        for (QuicPacket p : run.trace().datagrams(Direction.FROM_SERVER)) {
            String cur = p.datagram().path();
            if (last == null) {
                last = cur;
                continue;
            }
            if (!last.equals(cur) && !paths.contains(cur)) {
                paths.add(last);
                last = cur;
                String challenge = p.first("quic.path_challenge.data");
                if (challenge == null) {
                    return failed("the server's first packet on the new path " + cur + " did not contain a PATH_CHALLENGE frame");
                }
                challenges.add(challenge);
            }
        }
        if (last != null) {
            paths.add(last);
        }
        if (paths.size() <= 1) {
            return failed("the server saw only a single path in use");
        }
        Set<String> responses = new HashSet<>();
        for (QuicPacket p : run.trace().all(Direction.FROM_CLIENT)) {
            responses.addAll(p.all("quic.path_response.data"));
        }
        List<String> unanswered = challenges.stream().filter(c -> !responses.contains(c)).toList();
        if (!unanswered.isEmpty()) {
            return failed(unanswered.size() + " PATH_CHALLENGE frames got no PATH_RESPONSE");
        }
        return succeeded(paths.size() + " paths, each validated with PATH_CHALLENGE and PATH_RESPONSE, files intact");
    }

    static CheckResult checkAddressRebinding(CaseRun run) throws IOException, InterruptedException {
        if (!run.validKeyLog()) {
            return unsupported("the check needs a key log (SSLKEYLOGFILE) and none of the endpoints wrote one");
        }
        Set<String> addresses = new LinkedHashSet<>();
        for (QuicPacket p : run.trace().datagrams(Direction.FROM_SERVER)) {
            addresses.add(p.datagram().destination());
        }
        if (addresses.size() <= 1) {
            return failed("the server saw only a single client address in use");
        }
        CheckResult r = checkPortRebinding(run);
        return r.ok() ? succeeded(addresses.size() + " client addresses; " + r.reason()) : r;
    }

    static CheckResult checkConnectionMigration(CaseRun run) throws IOException, InterruptedException {
        CheckResult r = checkPortRebinding(run);
        if (!r.ok()) {
            return r;
        }
        String last = null;
        String dcid = null;
        Set<String> paths = new HashSet<>();
        for (QuicPacket p : run.trace().datagrams(Direction.FROM_CLIENT)) {
            String cur = p.datagram().path();
            if (last == null) {
                last = cur;
                dcid = p.first("quic.dcid");
                continue;
            }
            if (!last.equals(cur) && !paths.contains(cur)) {
                paths.add(last);
                last = cur;
                String now = p.first("quic.dcid");
                if (java.util.Objects.equals(dcid, now)) {
                    return failed("the client's first packet after migrating to " + cur + " used the previous DCID " + dcid);
                }
                dcid = now;
            }
        }
        return succeeded("the client migrated with a new connection ID; " + r.reason());
    }
}
