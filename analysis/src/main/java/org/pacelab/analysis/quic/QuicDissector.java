package org.pacelab.analysis.quic;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.packet.DecodedPacket;
import org.pacelab.analysis.packet.Endpoint;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.wire.VarInt;

/**
 * Dissects the QUIC v1 packets of UDP datagrams as a passive observer: walks coalesced packets (RFC 9000 §12.2),
 * learns connection IDs from long headers (§7.2), removes header protection (RFC 9001 §5.4) with Initial keys
 * derived from the client's first Destination Connection ID (§5.2) and with key-log secrets for the other
 * levels, and decodes packet numbers (RFC 9000 §A.3). The keys for a connection are found by the client random
 * of its ClientHello, read from the decrypted client Initial; the cipher suite from the ServerHello in the server's
 * Initial. Allocates nothing per 1-RTT packet.
 */
public final class QuicDissector {
    private static final int VERSION_1 = 0x00000001;

    private final KeyLog keyLog;
    private final Map<Endpoint, QuicConnection> byClient = new HashMap<>();
    private final List<QuicConnection> connections = new ArrayList<>();
    private final Map<String, Long> failures = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final byte[] saved = new byte[5];
    private byte[] scratch = new byte[2048];
    /** The captured payload of the frame {@link #gsoSegmentSize} looks at. */
    private byte[] payloadScratch = new byte[2048];
    private final CidSearch cidSearch = new CidSearch();
    private QuicConnection cached;
    private long packets;
    private long quicDatagrams;
    private long recovered;
    private long server1Rtt;
    private long server1RttRecovered;
    private long gsoFrames;
    private long gsoDatagrams;

    /** @param keyLog secrets for Handshake and 1-RTT packets, or null (then only Initial numbers are recovered) */
    public QuicDissector(KeyLog keyLog) {
        this.keyLog = keyLog;
    }

    /**
     * Dissects one datagram. {@code fromServer} gives its direction. The packet's buffer is modified in place
     * (header protection removed).
     */
    public void dissect(DecodedPacket p, boolean fromServer, long timeNs, DatagramInfo info) {
        info.clear();
        ByteBuffer b = p.buffer();
        int pos = p.payloadOffset();
        int capturedEnd = pos + p.capturedPayloadLength();
        int datagramEnd = pos + p.payloadLength();
        int direction = fromServer ? QuicConnection.SERVER : QuicConnection.CLIENT;
        QuicConnection conn = lookup(p, fromServer);
        boolean first = true;
        while (pos < capturedEnd) {
            int h = b.get(pos) & 0xff;
            if ((h & 0x80) == 0) {
                if (!first && allZero(b, pos, capturedEnd)) {
                    break; // padding after coalesced packets
                }
                shortHeader(b, pos, capturedEnd, datagramEnd, direction, conn, info);
                break;
            }
            if (capturedEnd - pos < 7) {
                fail("long header cut short by the capture's snap length");
                break;
            }
            int version = u32(b, pos + 1);
            int dcidLen = b.get(pos + 5) & 0xff;
            int o = pos + 6 + dcidLen;
            if (o >= capturedEnd) {
                fail("long header cut short by the capture's snap length");
                break;
            }
            int scidLen = b.get(o) & 0xff;
            int scidAt = o + 1;
            o = scidAt + scidLen;
            if (version == 0) {
                info.add(PacketType.VERSION_NEGOTIATION, -1);
                break;
            }
            if (version != VERSION_1) {
                fail(String.format("QUIC version 0x%08x is not supported (only version 1)", version));
                break;
            }
            if (dcidLen > 20 || scidLen > 20 || o > capturedEnd) {
                fail("malformed long header (connection ID length over 20 or past the datagram)");
                break;
            }
            PacketType type = PacketType.fromLongTypeBits(h >>> 4);
            if (conn == null || isNewConnection(conn, type, fromServer, b, pos + 6, dcidLen, scidAt, scidLen)) {
                conn = create(p, fromServer, timeNs);
            }
            info.connection(conn);
            learnIds(conn, type, fromServer, b, pos + 6, dcidLen, scidAt, scidLen);
            if (type == PacketType.RETRY) {
                info.add(PacketType.RETRY, -1);
                break;
            }
            ByteBuffer fields = b.duplicate().limit(capturedEnd).position(o);
            if (type == PacketType.INITIAL) {
                long tokenLength = VarInt.readOrMinusOne(fields);
                if (tokenLength < 0 || tokenLength > capturedEnd - fields.position()) {
                    fail("malformed Initial token length");
                    break;
                }
                fields.position(fields.position() + (int) tokenLength);
            }
            long length = VarInt.readOrMinusOne(fields);
            if (length < 0) {
                fail("malformed long header length field");
                break;
            }
            int pnOffset = fields.position();
            long packetEndL = pnOffset + length;
            if (packetEndL > datagramEnd) {
                fail("long header length runs past the end of the datagram");
                break;
            }
            int packetEnd = (int) packetEndL;
            long pn = packetNumber(b, pos, pnOffset, packetEnd, capturedEnd, type, direction, conn, true);
            info.add(type, pn);
            pos = packetEnd;
            first = false;
        }
        if (info.connection() == null) {
            info.connection(conn);
        }
        if (info.count() > 0) {
            quicDatagrams++;
        }
    }

    /**
     * The segment size when the frame is a UDP GSO buffer (several datagrams the kernel had not yet split when the
     * capture saw them), else 0. A capture on the sending host (tcpdump on {@code lo}, or on a veth or a NIC that
     * segments UDP itself) records a UDP_SEGMENT send as one frame whose payload is several whole datagrams of equal
     * size (the last may be shorter). A short-header packet runs to the end of its datagram (RFC 9000 §12.2), so a
     * second short header inside one payload can only be the start of another datagram: the frame is split when,
     * at every multiple of one size, a short header (header form 0, fixed bit 1: bits header protection leaves
     * alone, RFC 9001 §5.4.1) carries the first packet's Destination Connection ID. Needs a connection ID of at least
     * 4 bytes, known from the captured handshake; with a shorter one (or none) a GSO buffer is not recognised and
     * counts as one datagram.
     */
    public int gsoSegmentSize(DecodedPacket p, boolean fromServer) {
        QuicConnection conn = lookup(p, fromServer);
        if (conn == null) {
            return 0;
        }
        byte[] known = fromServer ? conn.clientCid : conn.serverCid;
        int cidLen = known == null ? 0 : known.length;
        ByteBuffer b = p.buffer();
        int start = p.payloadOffset();
        int captured = p.capturedPayloadLength();
        if (cidLen < MIN_GSO_CID || !isShortHeader(b.get(start)) || captured < 2 * (cidLen + MIN_SHORT_PACKET)) {
            return 0;
        }
        // the captured payload as an array once: the search below looks at every offset of a ~1.4 KB payload, and
        // bounds-checked ByteBuffer reads of a mapped capture made it the analyzer's costliest step (13 % of a
        // simulated run's main thread, docs/benchmarks.md "Simulator")
        byte[] a = payloadScratch(captured);
        b.get(start, a, 0, captured);
        int size = cidSearch.firstSegmentSize(a, captured, cidLen);
        if (size > 0) {
            int segments = (p.payloadLength() + size - 1) / size;
            gsoFrames++;
            gsoDatagrams += segments;
        }
        return size;
    }

    /**
     * The search of {@link #gsoSegmentSize}: the first packet's Destination Connection ID ({@code a[1..1+cidLen)}) is
     * looked for at every offset with Horspool's algorithm, which skips up to the ID's length at a time and still
     * finds every occurrence in order, so the answer is that of trying every offset (as the search did until
     * 2026-12-03; {@code QuicDissectorTest}). Trying every offset of every 1.4 KB server datagram cost ~7 % of a
     * C1-compiled simulation's main thread (docs/benchmarks.md, "Simulator"). The shift table is kept while the ID
     * stays the same (every packet of a connection).
     */
    static final class CidSearch {
        private final byte[] cid = new byte[20];
        private int cidLen = -1;
        private final int[] shift = new int[256];

        /** The smallest segment size at which every further multiple starts a short header with the ID, or 0. */
        int firstSegmentSize(byte[] a, int captured, int cidLen) {
            prepare(a, cidLen);
            int last = captured - 1 - cidLen; // a later header and its connection ID must lie in the captured bytes
            byte end = a[cidLen]; // the ID's last byte
            int size = 1 + cidLen + MIN_SHORT_PACKET;
            while (size <= last) {
                byte x = a[size + cidLen]; // under the ID's last byte when the ID starts at size + 1
                if (x == end && isShortHeader(a[size]) && sameBytes(a, 1, size + 1, cidLen)
                        && everySegment(a, captured, size, cidLen)) {
                    return size;
                }
                size += shift[x & 0xff];
            }
            return 0;
        }

        private void prepare(byte[] a, int len) {
            if (len == cidLen && isCid(a, len)) {
                return;
            }
            System.arraycopy(a, 1, cid, 0, len);
            cidLen = len;
            java.util.Arrays.fill(shift, len);
            for (int i = 0; i < len - 1; i++) {
                shift[cid[i] & 0xff] = len - 1 - i;
            }
        }

        /** Whether {@code a[1..1+len)} is the ID of the table. */
        private boolean isCid(byte[] a, int len) {
            for (int i = 0; i < len; i++) {
                if (a[1 + i] != cid[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private byte[] payloadScratch(int length) {
        if (payloadScratch.length < length) {
            payloadScratch = new byte[Math.max(length, 2 * payloadScratch.length)];
        }
        return payloadScratch;
    }

    /** Smallest short-header packet after its connection ID: 1-byte packet number, 4 sampled bytes, a 16-byte tag. */
    private static final int MIN_SHORT_PACKET = 1 + 4 + 16;
    /** Shortest connection ID with which a GSO buffer is recognised (2^-34 odds per offset of a false match). */
    private static final int MIN_GSO_CID = 4;

    private static boolean isShortHeader(byte first) {
        return (first & 0xc0) == 0x40;
    }

    /** Whether a short header with the first packet's connection ID starts at every further multiple of size. */
    private static boolean everySegment(byte[] a, int captured, int size, int cidLen) {
        for (int at = 2 * size; at + 1 + cidLen <= captured; at += size) {
            if (!isShortHeader(a[at]) || !sameBytes(a, 1, at + 1, cidLen)) {
                return false;
            }
        }
        return true;
    }

    /** A plain loop over a connection ID's few bytes (at most 20; C1 does not make {@code Arrays.equals} an intrinsic). */
    private static boolean sameBytes(byte[] a, int x, int y, int len) {
        for (int i = 0; i < len; i++) {
            if (a[x + i] != a[y + i]) {
                return false;
            }
        }
        return true;
    }

    private void shortHeader(ByteBuffer b, int pos, int capturedEnd, int datagramEnd, int direction,
                             QuicConnection conn, DatagramInfo info) {
        byte[] dcid = conn == null ? null : direction == QuicConnection.SERVER ? conn.clientCid : conn.serverCid;
        if (dcid == null && (b.get(pos) & 0x40) == 0) {
            return; // fixed bit clear and no handshake that could have negotiated greasing it (RFC 9287): not QUIC
        }
        if (dcid == null) {
            info.add(PacketType.ONE_RTT, -1);
            packets++;
            countServer1Rtt(direction, -1);
            fail("short header packet of a connection whose handshake was not captured (connection ID length unknown)");
            return;
        }
        info.connection(conn);
        int pnOffset = pos + 1 + dcid.length;
        long pn = packetNumber(b, pos, pnOffset, datagramEnd, capturedEnd, PacketType.ONE_RTT, direction, conn, false);
        info.add(PacketType.ONE_RTT, pn);
        countServer1Rtt(direction, pn);
    }

    private void countServer1Rtt(int direction, long pn) {
        if (direction == QuicConnection.SERVER) {
            server1Rtt++;
            if (pn >= 0) {
                server1RttRecovered++;
            }
        }
    }

    /** Removes header protection and decodes the packet number; -1 when it cannot be recovered. */
    private long packetNumber(ByteBuffer b, int start, int pnOffset, int packetEnd, int capturedEnd, PacketType type,
                              int direction, QuicConnection conn, boolean longHeader) {
        packets++;
        KeyCandidates keys = keysFor(conn, type, direction);
        if (keys == null) {
            return -1;
        }
        int limit = Math.min(packetEnd, capturedEnd);
        if (pnOffset + HeaderProtection.SAMPLE_END_OFFSET > limit) {
            fail(packetEnd > capturedEnd ? "packet cut by the capture's snap length before the header-protection sample"
                    : "packet too short to hold a header-protection sample");
            return -1;
        }
        PacketSpace space = type.space();
        long largest = conn.largest(direction, space);
        int pnLength;
        if (keys.alive() > 1) {
            pnLength = trial(b, start, pnOffset, limit, keys, longHeader, largest);
            if (pnLength == -2) {
                fail("cipher suite unknown (ServerHello not captured) and more than one key fits this packet");
                return -1;
            }
        } else {
            pnLength = unprotect(b, start, pnOffset, limit, keys.only(), longHeader);
        }
        if (pnLength < 0) {
            fail("header protection removal gave non-zero reserved bits: the key log's secrets do not fit this connection");
            return -1;
        }
        long truncated = PacketNumbers.read(b, pnOffset, pnLength);
        long pn = PacketNumbers.decode(largest, truncated, pnLength);
        conn.observe(direction, space, pn);
        recovered++;
        if (type == PacketType.INITIAL) {
            readInitialCrypto(b, start, pnOffset, pnLength, packetEnd, capturedEnd, pn, direction, conn);
        }
        return pn;
    }

    /**
     * Removes header protection; returns the packet number length, or -1 (bytes restored) when the reserved bits
     * come out non-zero (RFC 9000 §17.2, §17.3.1), i.e. the key is wrong.
     */
    private int unprotect(ByteBuffer b, int start, int pnOffset, int limit, PacketKeys keys, boolean longHeader) {
        save(b, start, pnOffset);
        int len = HeaderProtection.remove(b, start, pnOffset, limit, keys);
        int firstByte = b.get(start) & 0xff;
        int reserved = longHeader ? firstByte & 0x0c : firstByte & 0x18;
        if (len > 0 && reserved == 0) {
            return len;
        }
        restore(b, start, pnOffset);
        return -1;
    }

    /**
     * Tries every remaining key, dropping those that give non-zero reserved bits. Unprotects the packet with a fitting
     * key when all fitting keys agree on the packet number; returns -2 when they disagree, -1 when none fits.
     */
    private int trial(ByteBuffer b, int start, int pnOffset, int limit, KeyCandidates keys, boolean longHeader, long largest) {
        int chosen = -1;
        long agreed = -1;
        boolean conflict = false;
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.isAlive(i)) {
                continue;
            }
            int len = unprotect(b, start, pnOffset, limit, keys.get(i), longHeader);
            if (len < 0) {
                keys.eliminate(i);
                continue;
            }
            long pn = PacketNumbers.decode(largest, PacketNumbers.read(b, pnOffset, len), len);
            restore(b, start, pnOffset);
            if (chosen < 0) {
                chosen = i;
                agreed = pn;
            } else if (pn != agreed) {
                conflict = true;
            }
        }
        if (chosen < 0) {
            return -1;
        }
        if (conflict && keys.alive() > 1) {
            return -2;
        }
        return unprotect(b, start, pnOffset, limit, keys.alive() == 1 ? keys.only() : keys.get(chosen), longHeader);
    }

    private void save(ByteBuffer b, int start, int pnOffset) {
        saved[0] = b.get(start);
        for (int i = 0; i < 4; i++) {
            saved[1 + i] = b.get(pnOffset + i);
        }
    }

    private void restore(ByteBuffer b, int start, int pnOffset) {
        b.put(start, saved[0]);
        for (int i = 0; i < 4; i++) {
            b.put(pnOffset + i, saved[1 + i]);
        }
    }

    private KeyCandidates keysFor(QuicConnection conn, PacketType type, int direction) {
        if (type == PacketType.INITIAL) {
            if (conn.initialDcid == null) {
                fail("Initial packet before any client Initial (Initial keys unknown)");
                return null;
            }
            if (conn.initialClient == null) {
                conn.initialClient = InitialSecrets.clientKeys(conn.initialDcid);
                conn.initialServer = InitialSecrets.serverKeys(conn.initialDcid);
            }
            return KeyCandidates.forKeys(direction == QuicConnection.SERVER ? conn.initialServer : conn.initialClient);
        }
        TrafficKeys t = traffic(conn);
        if (t == null) {
            return null;
        }
        KeyCandidates k = switch (type) {
            case HANDSHAKE -> t.handshake[direction];
            case ZERO_RTT -> t.early;
            default -> t.application[direction];
        };
        if (k == null) {
            fail("the key log has no " + switch (type) {
                case HANDSHAKE -> direction == QuicConnection.SERVER ? KeyLog.SERVER_HANDSHAKE : KeyLog.CLIENT_HANDSHAKE;
                case ZERO_RTT -> KeyLog.CLIENT_EARLY;
                default -> direction == QuicConnection.SERVER ? KeyLog.SERVER_TRAFFIC_0 : KeyLog.CLIENT_TRAFFIC_0;
            } + " for this connection");
        }
        return k;
    }

    private TrafficKeys traffic(QuicConnection conn) {
        if (conn.traffic != null && conn.trafficSuiteCode == conn.cipherSuiteCode) {
            return conn.traffic;
        }
        if (keyLog == null) {
            fail("no key log given");
            return null;
        }
        if (conn.trafficProblem != null && conn.problemClientRandom == conn.clientRandom) {
            fail(conn.trafficProblem);
            return null;
        }
        Map<String, byte[]> secrets;
        conn.problemClientRandom = conn.clientRandom;
        if (conn.clientRandom != null) {
            secrets = keyLog.secretsFor(conn.clientRandom);
            if (secrets == null) {
                conn.trafficProblem = "the key log (" + keyLog.describeSources() + ") has no secrets for the connection's "
                        + "client random " + HexFormat.of().formatHex(conn.clientRandom).substring(0, 16) + "…";
                fail(conn.trafficProblem);
                return null;
            }
        } else {
            secrets = keyLog.onlyConnection();
            if (secrets == null) {
                conn.trafficProblem = "the ClientHello was not captured, so the connection's key log entry is unknown "
                        + "(the log holds " + keyLog.connections() + " connections)";
                fail(conn.trafficProblem);
                return null;
            }
            note("connection of " + conn.client + ": ClientHello not captured; used the key log's only connection");
        }
        conn.trafficProblem = null;
        conn.traffic = new TrafficKeys(secrets, conn.cipherSuiteCode);
        conn.trafficSuiteCode = conn.cipherSuiteCode;
        return conn.traffic;
    }

    /** Decrypts an Initial packet (a copy) and feeds its CRYPTO frames to the hello readers. */
    private void readInitialCrypto(ByteBuffer b, int start, int pnOffset, int pnLength, int packetEnd, int capturedEnd,
                                   long pn, int direction, QuicConnection conn) {
        boolean need = direction == QuicConnection.CLIENT ? conn.clientRandom == null : conn.cipherSuiteCode < 0;
        if (!need || packetEnd > capturedEnd) {
            return;
        }
        int length = packetEnd - start;
        if (scratch.length < length + 16) {
            scratch = new byte[length + 16];
        }
        b.get(start, scratch, 0, length);
        ByteBuffer copy = ByteBuffer.wrap(scratch, 0, length);
        int headerLength = pnOffset - start + pnLength;
        PacketKeys keys = direction == QuicConnection.SERVER ? conn.initialServer : conn.initialClient;
        int plain;
        try {
            plain = keys.open(copy, 0, headerLength, headerLength, length - headerLength, pn);
        } catch (AeadException e) {
            fail("an Initial packet did not decrypt with the keys of its Destination Connection ID");
            return;
        }
        List<Frame> frames;
        try {
            frames = FrameCodec.decodeAll(ByteBuffer.wrap(scratch, headerLength, plain).slice());
        } catch (QuicException e) {
            note("an Initial packet of " + conn.client + " holds malformed frames: " + e.getMessage());
            return;
        }
        CryptoStreamPrefix prefix = direction == QuicConnection.SERVER ? conn.serverHello : conn.clientHello;
        for (Frame f : frames) {
            if (f instanceof CryptoFrame c) {
                prefix.add(c.offset(), c.data());
            }
        }
        if (direction == QuicConnection.CLIENT) {
            conn.clientRandom = TlsHello.clientRandom(prefix.bytes(), prefix.contiguous());
        } else {
            conn.cipherSuiteCode = TlsHello.serverCipherSuite(prefix.bytes(), prefix.contiguous());
        }
    }

    private QuicConnection lookup(DecodedPacket p, boolean fromServer) {
        if (cached != null && (fromServer ? cached.client.isDestinationOf(p) : cached.client.isSourceOf(p))) {
            return cached;
        }
        QuicConnection c = byClient.get(fromServer ? p.destination() : p.source());
        if (c != null) {
            cached = c;
        }
        return c;
    }

    private QuicConnection create(DecodedPacket p, boolean fromServer, long timeNs) {
        Endpoint client = fromServer ? p.destination() : p.source();
        QuicConnection c = new QuicConnection(client, timeNs);
        byClient.put(client, c);
        connections.add(c);
        cached = c;
        return c;
    }

    /** A client Initial with a new Source Connection ID from a known client address starts a new connection. */
    private static boolean isNewConnection(QuicConnection c, PacketType type, boolean fromServer, ByteBuffer b,
                                           int dcidAt, int dcidLen, int scidAt, int scidLen) {
        return !fromServer && type == PacketType.INITIAL && c.clientCid != null && !equal(c.clientCid, b, scidAt, scidLen)
                && (c.retryScid == null || !equal(c.retryScid, b, dcidAt, dcidLen));
    }

    /** RFC 9000 §7.2: each side's Source Connection ID is what the peer puts in its short headers. */
    private static void learnIds(QuicConnection c, PacketType type, boolean fromServer, ByteBuffer b, int dcidAt, int dcidLen,
                                 int scidAt, int scidLen) {
        if (fromServer) {
            if (type == PacketType.RETRY) {
                c.retryScid = bytes(b, scidAt, scidLen);
                return;
            }
            if (c.serverCid == null || !equal(c.serverCid, b, scidAt, scidLen)) {
                c.serverCid = bytes(b, scidAt, scidLen);
            }
            if (c.clientCid == null) {
                c.clientCid = bytes(b, dcidAt, dcidLen);
            }
            return;
        }
        if (c.clientCid == null || !equal(c.clientCid, b, scidAt, scidLen)) {
            c.clientCid = bytes(b, scidAt, scidLen);
        }
        if (type == PacketType.INITIAL) {
            if (c.originalDcid == null) {
                c.originalDcid = bytes(b, dcidAt, dcidLen);
                c.initialDcid = c.originalDcid;
            } else if (c.retryScid != null && equal(c.retryScid, b, dcidAt, dcidLen) && !Arrays.equals(c.initialDcid, c.retryScid)) {
                c.initialDcid = c.retryScid; // RFC 9001 §5.2: after a Retry, Initial keys come from its SCID
                c.initialClient = null;
                c.initialServer = null;
            }
        }
    }

    private static boolean equal(byte[] a, ByteBuffer b, int at, int len) {
        if (a.length != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (a[i] != b.get(at + i)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(ByteBuffer b, int at, int len) {
        byte[] a = new byte[len];
        b.get(at, a);
        return a;
    }

    private static boolean allZero(ByteBuffer b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static int u32(ByteBuffer b, int i) {
        return (b.get(i) & 0xff) << 24 | (b.get(i + 1) & 0xff) << 16 | (b.get(i + 2) & 0xff) << 8 | (b.get(i + 3) & 0xff);
    }

    private void fail(String reason) {
        failures.merge(reason, 1L, Long::sum);
    }

    private void note(String sentence) {
        if (!notes.contains(sentence)) {
            notes.add(sentence);
        }
    }

    public List<QuicConnection> connections() {
        return List.copyOf(connections);
    }

    /** Datagrams that held at least one QUIC packet. */
    public long quicDatagrams() {
        return quicDatagrams;
    }

    /** QUIC packets that carry a packet number, both directions. */
    public long packetsWithNumber() {
        return packets;
    }

    public long recovered() {
        return recovered;
    }

    public long server1RttPackets() {
        return server1Rtt;
    }

    public long server1RttRecovered() {
        return server1RttRecovered;
    }

    /** Why packet numbers were not recovered, with counts, most frequent first order of appearance. */
    public Map<String, Long> failures() {
        return java.util.Collections.unmodifiableMap(failures);
    }

    /** Capture frames that were UDP GSO buffers ({@link #gsoSegmentSize}). */
    public long gsoFrames() {
        return gsoFrames;
    }

    /** The datagrams those GSO buffers held. */
    public long gsoDatagrams() {
        return gsoDatagrams;
    }

    public List<String> notes() {
        List<String> all = new ArrayList<>(notes);
        if (gsoFrames > 0) {
            all.add(gsoFrames + " capture frames were UDP GSO buffers (the capture saw a UDP_SEGMENT send before the kernel "
                    + "split it) holding " + gsoDatagrams + " datagrams: each was split by its segment size and its datagrams "
                    + "given the frame's timestamp, so gaps inside one buffer are 0 (its spacing on a wire is not in this capture).");
        }
        return List.copyOf(all);
    }
}
