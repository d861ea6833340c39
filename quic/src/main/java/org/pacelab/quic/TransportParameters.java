package org.pacelab.quic;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.pacelab.quic.wire.Bytes;
import org.pacelab.quic.wire.VarInt;

/**
 * QUIC transport parameters (RFC 9000 §18, and version_information of RFC 9368 §3). Absent connection IDs, token,
 * preferred address and version information are null; absent integers hold their §18.2 defaults. Times are milliseconds. Arrays are not copied.
 * Build with {@link #builder()}; {@link #decode} validates everything §18.2 requires and ignores
 * unknown (including reserved/GREASE, id 31*N+27) parameters.
 */
public record TransportParameters(
        byte[] originalDestinationConnectionId,
        long maxIdleTimeout,
        byte[] statelessResetToken,
        long maxUdpPayloadSize,
        long initialMaxData,
        long initialMaxStreamDataBidiLocal,
        long initialMaxStreamDataBidiRemote,
        long initialMaxStreamDataUni,
        long initialMaxStreamsBidi,
        long initialMaxStreamsUni,
        long ackDelayExponent,
        long maxAckDelay,
        boolean disableActiveMigration,
        PreferredAddress preferredAddress,
        long activeConnectionIdLimit,
        byte[] initialSourceConnectionId,
        byte[] retrySourceConnectionId,
        VersionInformation versionInformation,
        long minAckDelay) {

    public static final int ORIGINAL_DESTINATION_CONNECTION_ID = 0x00;
    public static final int MAX_IDLE_TIMEOUT = 0x01;
    public static final int STATELESS_RESET_TOKEN = 0x02;
    public static final int MAX_UDP_PAYLOAD_SIZE = 0x03;
    public static final int INITIAL_MAX_DATA = 0x04;
    public static final int INITIAL_MAX_STREAM_DATA_BIDI_LOCAL = 0x05;
    public static final int INITIAL_MAX_STREAM_DATA_BIDI_REMOTE = 0x06;
    public static final int INITIAL_MAX_STREAM_DATA_UNI = 0x07;
    public static final int INITIAL_MAX_STREAMS_BIDI = 0x08;
    public static final int INITIAL_MAX_STREAMS_UNI = 0x09;
    public static final int ACK_DELAY_EXPONENT = 0x0a;
    public static final int MAX_ACK_DELAY = 0x0b;
    public static final int DISABLE_ACTIVE_MIGRATION = 0x0c;
    public static final int PREFERRED_ADDRESS = 0x0d;
    public static final int ACTIVE_CONNECTION_ID_LIMIT = 0x0e;
    public static final int INITIAL_SOURCE_CONNECTION_ID = 0x0f;
    public static final int RETRY_SOURCE_CONNECTION_ID = 0x10;
    /** RFC 9368 §3: the version the sender chose and the versions it supports. */
    public static final int VERSION_INFORMATION = 0x11;
    /**
     * draft-ietf-quic-ack-frequency §3: the smallest ACK delay the sender can honour, in microseconds; sending it
     * announces that the sender accepts ACK_FREQUENCY and IMMEDIATE_ACK frames. Absent: -1.
     */
    public static final long MIN_ACK_DELAY = 0xff04de1bL;

    public static final long DEFAULT_MAX_UDP_PAYLOAD_SIZE = 65527;
    public static final long DEFAULT_ACK_DELAY_EXPONENT = 3;
    public static final long DEFAULT_MAX_ACK_DELAY = 25;
    public static final long DEFAULT_ACTIVE_CONNECTION_ID_LIMIT = 2;

    private static final String[] NAMES = {
        "original_destination_connection_id", "max_idle_timeout", "stateless_reset_token", "max_udp_payload_size",
        "initial_max_data", "initial_max_stream_data_bidi_local", "initial_max_stream_data_bidi_remote",
        "initial_max_stream_data_uni", "initial_max_streams_bidi", "initial_max_streams_uni", "ack_delay_exponent",
        "max_ack_delay", "disable_active_migration", "preferred_address", "active_connection_id_limit",
        "initial_source_connection_id", "retry_source_connection_id", "version_information"};

    /**
     * Version Information (RFC 9368 §3): the Chosen Version (the version of the packets carrying the handshake) and
     * the Available Versions (the versions the sender supports, in preference order for a server, in the order a
     * client would pick for a client). Neither may be 0 (§3: TRANSPORT_PARAMETER_ERROR).
     */
    public record VersionInformation(int chosenVersion, int[] availableVersions) {
        public VersionInformation {
            availableVersions = availableVersions.clone();
        }

        public boolean offers(int version) {
            for (int v : availableVersions) {
                if (v == version) {
                    return true;
                }
            }
            return false;
        }

        int encodedLength() {
            return 4 + 4 * availableVersions.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VersionInformation v && v.chosenVersion == chosenVersion && Arrays.equals(v.availableVersions, availableVersions);
        }

        @Override
        public int hashCode() {
            return 31 * chosenVersion + Arrays.hashCode(availableVersions);
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("VersionInformation[chosen=0x").append(Integer.toHexString(chosenVersion)).append(", available=");
            for (int i = 0; i < availableVersions.length; i++) {
                b.append(i == 0 ? "" : ",").append("0x").append(Integer.toHexString(availableVersions[i]));
            }
            return b.append(']').toString();
        }
    }

    /**
     * A server's preferred address (RFC 9000 §18.2, §9.6): IPv4 address (4 bytes) and port, IPv6 address
     * (16 bytes) and port, a connection ID of 1..20 bytes and its stateless reset token. An all-zero
     * address with port 0 means that family is absent.
     */
    public record PreferredAddress(byte[] ipv4Address, int ipv4Port, byte[] ipv6Address, int ipv6Port, byte[] connectionId,
                                   byte[] statelessResetToken) {
        public PreferredAddress {
            if (ipv4Address.length != 4 || ipv6Address.length != 16 || statelessResetToken.length != 16) {
                throw new IllegalArgumentException("preferred address needs a 4-byte IPv4 and 16-byte IPv6 address and a 16-byte token");
            }
            if (connectionId.length < 1 || connectionId.length > 20) {
                throw new IllegalArgumentException("preferred address connection ID must be 1..20 bytes, not " + connectionId.length);
            }
            if (ipv4Port < 0 || ipv4Port > 0xffff || ipv6Port < 0 || ipv6Port > 0xffff) {
                throw new IllegalArgumentException("ports must be 0..65535");
            }
        }

        int encodedLength() {
            return 4 + 2 + 16 + 2 + 1 + connectionId.length + 16;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PreferredAddress p && Arrays.equals(p.ipv4Address, ipv4Address) && p.ipv4Port == ipv4Port
                    && Arrays.equals(p.ipv6Address, ipv6Address) && p.ipv6Port == ipv6Port
                    && Arrays.equals(p.connectionId, connectionId) && Arrays.equals(p.statelessResetToken, statelessResetToken);
        }

        @Override
        public int hashCode() {
            return Objects.hash(Arrays.hashCode(ipv4Address), ipv4Port, Arrays.hashCode(ipv6Address), ipv6Port,
                    Arrays.hashCode(connectionId), Arrays.hashCode(statelessResetToken));
        }

        @Override
        public String toString() {
            return "PreferredAddress[v4=" + Bytes.hex(ipv4Address) + ":" + ipv4Port + ", v6=" + Bytes.hex(ipv6Address) + ":"
                    + ipv6Port + ", cid=" + Bytes.hex(connectionId) + ", token=" + Bytes.hex(statelessResetToken) + "]";
        }
    }

    public TransportParameters {
        String problem = violation(originalDestinationConnectionId, maxIdleTimeout, statelessResetToken, maxUdpPayloadSize,
                initialMaxData, initialMaxStreamDataBidiLocal, initialMaxStreamDataBidiRemote, initialMaxStreamDataUni,
                initialMaxStreamsBidi, initialMaxStreamsUni, ackDelayExponent, maxAckDelay, activeConnectionIdLimit,
                initialSourceConnectionId, retrySourceConnectionId);
        if (problem == null) {
            problem = minAckDelayViolation(minAckDelay, maxAckDelay);
        }
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** draft-ietf-quic-ack-frequency §3: min_ack_delay (µs) may not exceed max_ack_delay (ms). */
    private static String minAckDelayViolation(long minAckDelay, long maxAckDelay) {
        if (minAckDelay > VarInt.MAX) {
            return "min_ack_delay " + minAckDelay + " is outside 0..2^62-1";
        }
        if (minAckDelay > maxAckDelay * 1000) {
            return "min_ack_delay of " + minAckDelay + " us exceeds max_ack_delay of " + maxAckDelay
                    + " ms (draft-ietf-quic-ack-frequency §3)";
        }
        return null;
    }

    /** A builder starting from the §18.2 defaults with every optional parameter absent. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.originalDestinationConnectionId = originalDestinationConnectionId;
        b.maxIdleTimeout = maxIdleTimeout;
        b.statelessResetToken = statelessResetToken;
        b.maxUdpPayloadSize = maxUdpPayloadSize;
        b.initialMaxData = initialMaxData;
        b.initialMaxStreamDataBidiLocal = initialMaxStreamDataBidiLocal;
        b.initialMaxStreamDataBidiRemote = initialMaxStreamDataBidiRemote;
        b.initialMaxStreamDataUni = initialMaxStreamDataUni;
        b.initialMaxStreamsBidi = initialMaxStreamsBidi;
        b.initialMaxStreamsUni = initialMaxStreamsUni;
        b.ackDelayExponent = ackDelayExponent;
        b.maxAckDelay = maxAckDelay;
        b.disableActiveMigration = disableActiveMigration;
        b.preferredAddress = preferredAddress;
        b.versionInformation = versionInformation;
        b.minAckDelay = minAckDelay;
        b.activeConnectionIdLimit = activeConnectionIdLimit;
        b.initialSourceConnectionId = initialSourceConnectionId;
        b.retrySourceConnectionId = retrySourceConnectionId;
        return b;
    }

    /** The name of a transport parameter id as in RFC 9000 §18.2, or its hex value. */
    public static String nameOf(long id) {
        if (id == MIN_ACK_DELAY) {
            return "min_ack_delay";
        }
        return id >= 0 && id < NAMES.length ? NAMES[(int) id] : "0x" + Long.toHexString(id);
    }

    // ------------------------------------------------------------------------------------ encoding

    /** Encodes the parameters that are present or differ from their defaults (RFC 9000 §18). */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(encodedLength());
        writeBytes(b, ORIGINAL_DESTINATION_CONNECTION_ID, originalDestinationConnectionId);
        writeInt(b, MAX_IDLE_TIMEOUT, maxIdleTimeout, 0);
        writeBytes(b, STATELESS_RESET_TOKEN, statelessResetToken);
        writeInt(b, MAX_UDP_PAYLOAD_SIZE, maxUdpPayloadSize, DEFAULT_MAX_UDP_PAYLOAD_SIZE);
        writeInt(b, INITIAL_MAX_DATA, initialMaxData, 0);
        writeInt(b, INITIAL_MAX_STREAM_DATA_BIDI_LOCAL, initialMaxStreamDataBidiLocal, 0);
        writeInt(b, INITIAL_MAX_STREAM_DATA_BIDI_REMOTE, initialMaxStreamDataBidiRemote, 0);
        writeInt(b, INITIAL_MAX_STREAM_DATA_UNI, initialMaxStreamDataUni, 0);
        writeInt(b, INITIAL_MAX_STREAMS_BIDI, initialMaxStreamsBidi, 0);
        writeInt(b, INITIAL_MAX_STREAMS_UNI, initialMaxStreamsUni, 0);
        writeInt(b, ACK_DELAY_EXPONENT, ackDelayExponent, DEFAULT_ACK_DELAY_EXPONENT);
        writeInt(b, MAX_ACK_DELAY, maxAckDelay, DEFAULT_MAX_ACK_DELAY);
        if (disableActiveMigration) {
            VarInt.write(b, DISABLE_ACTIVE_MIGRATION);
            VarInt.write(b, 0);
        }
        if (preferredAddress != null) {
            PreferredAddress p = preferredAddress;
            VarInt.write(b, PREFERRED_ADDRESS);
            VarInt.write(b, p.encodedLength());
            b.put(p.ipv4Address()).putShort((short) p.ipv4Port()).put(p.ipv6Address()).putShort((short) p.ipv6Port());
            b.put((byte) p.connectionId().length).put(p.connectionId()).put(p.statelessResetToken());
        }
        writeInt(b, ACTIVE_CONNECTION_ID_LIMIT, activeConnectionIdLimit, DEFAULT_ACTIVE_CONNECTION_ID_LIMIT);
        writeBytes(b, INITIAL_SOURCE_CONNECTION_ID, initialSourceConnectionId);
        writeBytes(b, RETRY_SOURCE_CONNECTION_ID, retrySourceConnectionId);
        if (minAckDelay >= 0) {
            VarInt.write(b, MIN_ACK_DELAY);
            VarInt.write(b, VarInt.size(minAckDelay));
            VarInt.write(b, minAckDelay);
        }
        if (versionInformation != null) {
            VarInt.write(b, VERSION_INFORMATION);
            VarInt.write(b, versionInformation.encodedLength());
            b.putInt(versionInformation.chosenVersion());
            for (int v : versionInformation.availableVersions()) {
                b.putInt(v);
            }
        }
        return b.array();
    }

    private int encodedLength() {
        int n = bytesLength(ORIGINAL_DESTINATION_CONNECTION_ID, originalDestinationConnectionId)
                + intLength(MAX_IDLE_TIMEOUT, maxIdleTimeout, 0)
                + bytesLength(STATELESS_RESET_TOKEN, statelessResetToken)
                + intLength(MAX_UDP_PAYLOAD_SIZE, maxUdpPayloadSize, DEFAULT_MAX_UDP_PAYLOAD_SIZE)
                + intLength(INITIAL_MAX_DATA, initialMaxData, 0)
                + intLength(INITIAL_MAX_STREAM_DATA_BIDI_LOCAL, initialMaxStreamDataBidiLocal, 0)
                + intLength(INITIAL_MAX_STREAM_DATA_BIDI_REMOTE, initialMaxStreamDataBidiRemote, 0)
                + intLength(INITIAL_MAX_STREAM_DATA_UNI, initialMaxStreamDataUni, 0)
                + intLength(INITIAL_MAX_STREAMS_BIDI, initialMaxStreamsBidi, 0)
                + intLength(INITIAL_MAX_STREAMS_UNI, initialMaxStreamsUni, 0)
                + intLength(ACK_DELAY_EXPONENT, ackDelayExponent, DEFAULT_ACK_DELAY_EXPONENT)
                + intLength(MAX_ACK_DELAY, maxAckDelay, DEFAULT_MAX_ACK_DELAY)
                + (disableActiveMigration ? 2 : 0)
                + intLength(ACTIVE_CONNECTION_ID_LIMIT, activeConnectionIdLimit, DEFAULT_ACTIVE_CONNECTION_ID_LIMIT)
                + bytesLength(INITIAL_SOURCE_CONNECTION_ID, initialSourceConnectionId)
                + bytesLength(RETRY_SOURCE_CONNECTION_ID, retrySourceConnectionId);
        if (preferredAddress != null) {
            int len = preferredAddress.encodedLength();
            n += VarInt.size(PREFERRED_ADDRESS) + VarInt.size(len) + len;
        }
        if (minAckDelay >= 0) {
            n += VarInt.size(MIN_ACK_DELAY) + 1 + VarInt.size(minAckDelay);
        }
        if (versionInformation != null) {
            int len = versionInformation.encodedLength();
            n += VarInt.size(VERSION_INFORMATION) + VarInt.size(len) + len;
        }
        return n;
    }

    private static int intLength(int id, long v, long dflt) {
        return v == dflt ? 0 : VarInt.size(id) + 1 + VarInt.size(v);
    }

    private static int bytesLength(int id, byte[] v) {
        return v == null ? 0 : VarInt.size(id) + VarInt.size(v.length) + v.length;
    }

    private static void writeInt(ByteBuffer b, int id, long v, long dflt) {
        if (v != dflt) {
            VarInt.write(b, id);
            VarInt.write(b, VarInt.size(v));
            VarInt.write(b, v);
        }
    }

    private static void writeBytes(ByteBuffer b, int id, byte[] v) {
        if (v != null) {
            VarInt.write(b, id);
            VarInt.write(b, v.length);
            b.put(v);
        }
    }

    // ------------------------------------------------------------------------------------ decoding

    /**
     * Decodes the quic_transport_parameters extension (RFC 9000 §18).
     *
     * @param sentByServer whether the peer that sent these parameters is the server; a client must not
     *                     send server-only parameters (§18.2)
     * @throws QuicException TRANSPORT_PARAMETER_ERROR for truncation, a value whose length disagrees with
     *                       its parameter's length, duplicates, out-of-range values and server-only
     *                       parameters sent by a client
     */
    public static TransportParameters decode(byte[] data, boolean sentByServer) throws QuicException {
        ByteBuffer b = ByteBuffer.wrap(data);
        Builder p = new Builder();
        Set<Long> seen = new HashSet<>();
        while (b.hasRemaining()) {
            int at = b.position();
            long id = VarInt.readOrMinusOne(b);
            long length = id < 0 ? -1 : VarInt.readOrMinusOne(b);
            if (length < 0) {
                throw error("transport parameters end inside a parameter header at byte " + at);
            }
            if (length > b.remaining()) {
                throw error("transport parameter " + nameOf(id) + " at byte " + at + " announces " + length
                        + " bytes but only " + b.remaining() + " remain");
            }
            if (!seen.add(id)) {
                throw error("transport parameter " + nameOf(id) + " appears more than once (RFC 9000 §7.4)");
            }
            int len = (int) length;
            ByteBuffer value = b.slice(b.position(), len);
            b.position(b.position() + len);
            if (id == VERSION_INFORMATION) {
                p.versionInformation = versionInformation(value);
                continue;
            }
            if (id == MIN_ACK_DELAY) {
                p.minAckDelay = integer(value, id);
                continue;
            }
            if (id > RETRY_SOURCE_CONNECTION_ID) {
                continue; // unknown or reserved (31*N+27): ignored, RFC 9000 §18.1
            }
            if (!sentByServer && (id == ORIGINAL_DESTINATION_CONNECTION_ID || id == STATELESS_RESET_TOKEN
                    || id == PREFERRED_ADDRESS || id == RETRY_SOURCE_CONNECTION_ID)) {
                throw error("client sent server-only transport parameter " + nameOf(id) + " (RFC 9000 §18.2)");
            }
            switch ((int) id) {
                case ORIGINAL_DESTINATION_CONNECTION_ID -> p.originalDestinationConnectionId = connectionId(value, id);
                case MAX_IDLE_TIMEOUT -> p.maxIdleTimeout = integer(value, id);
                case STATELESS_RESET_TOKEN -> {
                    if (len != 16) {
                        throw error("stateless_reset_token must be 16 bytes, not " + len);
                    }
                    p.statelessResetToken = rest(value);
                }
                case MAX_UDP_PAYLOAD_SIZE -> p.maxUdpPayloadSize = integer(value, id);
                case INITIAL_MAX_DATA -> p.initialMaxData = integer(value, id);
                case INITIAL_MAX_STREAM_DATA_BIDI_LOCAL -> p.initialMaxStreamDataBidiLocal = integer(value, id);
                case INITIAL_MAX_STREAM_DATA_BIDI_REMOTE -> p.initialMaxStreamDataBidiRemote = integer(value, id);
                case INITIAL_MAX_STREAM_DATA_UNI -> p.initialMaxStreamDataUni = integer(value, id);
                case INITIAL_MAX_STREAMS_BIDI -> p.initialMaxStreamsBidi = integer(value, id);
                case INITIAL_MAX_STREAMS_UNI -> p.initialMaxStreamsUni = integer(value, id);
                case ACK_DELAY_EXPONENT -> p.ackDelayExponent = integer(value, id);
                case MAX_ACK_DELAY -> p.maxAckDelay = integer(value, id);
                case DISABLE_ACTIVE_MIGRATION -> {
                    if (len != 0) {
                        throw error("disable_active_migration must be empty, not " + len + " bytes");
                    }
                    p.disableActiveMigration = true;
                }
                case PREFERRED_ADDRESS -> p.preferredAddress = preferredAddress(value);
                case ACTIVE_CONNECTION_ID_LIMIT -> p.activeConnectionIdLimit = integer(value, id);
                case INITIAL_SOURCE_CONNECTION_ID -> p.initialSourceConnectionId = connectionId(value, id);
                case RETRY_SOURCE_CONNECTION_ID -> p.retrySourceConnectionId = connectionId(value, id);
                default -> throw new IllegalStateException("unreachable: id " + id);
            }
        }
        String problem = p.violation();
        if (problem != null) {
            throw error(problem);
        }
        return p.build();
    }

    private static long integer(ByteBuffer value, long id) throws QuicException {
        long v = VarInt.readOrMinusOne(value);
        if (v < 0 || value.hasRemaining()) {
            throw error("transport parameter " + nameOf(id) + " length " + value.limit()
                    + " does not match the variable-length integer it holds");
        }
        return v;
    }

    private static byte[] connectionId(ByteBuffer value, long id) throws QuicException {
        if (value.remaining() > 20) {
            throw error("transport parameter " + nameOf(id) + " holds a " + value.remaining()
                    + "-byte connection ID; at most 20 are allowed");
        }
        return rest(value);
    }

    private static PreferredAddress preferredAddress(ByteBuffer v) throws QuicException {
        if (v.remaining() < 4 + 2 + 16 + 2 + 1 + 16) {
            throw error("preferred_address of " + v.remaining() + " bytes is shorter than the 41-byte minimum");
        }
        byte[] v4 = new byte[4];
        v.get(v4);
        int v4Port = v.getShort() & 0xffff;
        byte[] v6 = new byte[16];
        v.get(v6);
        int v6Port = v.getShort() & 0xffff;
        int cidLength = v.get() & 0xff;
        if (cidLength < 1 || cidLength > 20) {
            throw error("preferred_address connection ID length " + cidLength + " is outside 1..20 (RFC 9000 §18.2)");
        }
        if (v.remaining() != cidLength + 16) {
            throw error("preferred_address length does not match its connection ID length " + cidLength);
        }
        byte[] cid = new byte[cidLength];
        v.get(cid);
        byte[] token = new byte[16];
        v.get(token);
        return new PreferredAddress(v4, v4Port, v6, v6Port, cid, token);
    }

    /** RFC 9368 §3: a non-empty multiple of 4 bytes, no version 0. */
    private static VersionInformation versionInformation(ByteBuffer v) throws QuicException {
        int n = v.remaining();
        if (n < 4 || n % 4 != 0) {
            throw error("version_information of " + n + " bytes is not a non-empty multiple of 4 (RFC 9368 §3)");
        }
        int chosen = v.getInt();
        if (chosen == 0) {
            throw error("version_information names version 0 as its chosen version (RFC 9368 §3)");
        }
        int[] available = new int[n / 4 - 1];
        for (int i = 0; i < available.length; i++) {
            available[i] = v.getInt();
            if (available[i] == 0) {
                throw error("version_information lists version 0 among its available versions (RFC 9368 §3)");
            }
        }
        return new VersionInformation(chosen, available);
    }

    private static byte[] rest(ByteBuffer v) {
        byte[] out = new byte[v.remaining()];
        v.get(out);
        return out;
    }

    private static QuicException error(String reason) {
        return new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, 0, reason);
    }

    private static String violation(byte[] odcid, long maxIdleTimeout, byte[] resetToken, long maxUdpPayloadSize,
                                    long initialMaxData, long bidiLocal, long bidiRemote, long uni, long streamsBidi,
                                    long streamsUni, long ackDelayExponent, long maxAckDelay, long activeCidLimit,
                                    byte[] iscid, byte[] rscid) {
        for (long v : new long[] {maxIdleTimeout, maxUdpPayloadSize, initialMaxData, bidiLocal, bidiRemote, uni, streamsBidi,
                streamsUni, ackDelayExponent, maxAckDelay, activeCidLimit}) {
            if (v < 0 || v > VarInt.MAX) {
                return "transport parameter value " + v + " is outside 0..2^62-1";
            }
        }
        if (maxUdpPayloadSize < 1200) {
            return "max_udp_payload_size " + maxUdpPayloadSize + " is below 1200 (RFC 9000 §18.2)";
        }
        if (streamsBidi > (1L << 60)) {
            return "initial_max_streams_bidi " + streamsBidi + " exceeds 2^60 (RFC 9000 §18.2)";
        }
        if (streamsUni > (1L << 60)) {
            return "initial_max_streams_uni " + streamsUni + " exceeds 2^60 (RFC 9000 §18.2)";
        }
        if (ackDelayExponent > 20) {
            return "ack_delay_exponent " + ackDelayExponent + " exceeds 20 (RFC 9000 §18.2)";
        }
        if (maxAckDelay >= (1 << 14)) {
            return "max_ack_delay " + maxAckDelay + " ms is not below 2^14 (RFC 9000 §18.2)";
        }
        if (activeCidLimit < 2) {
            return "active_connection_id_limit " + activeCidLimit + " is below 2 (RFC 9000 §18.2)";
        }
        if (resetToken != null && resetToken.length != 16) {
            return "stateless_reset_token must be 16 bytes, not " + resetToken.length;
        }
        for (byte[] cid : new byte[][] {odcid, iscid, rscid}) {
            if (cid != null && cid.length > 20) {
                return "connection ID transport parameter of " + cid.length + " bytes exceeds 20";
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransportParameters t
                && Arrays.equals(t.originalDestinationConnectionId, originalDestinationConnectionId)
                && t.maxIdleTimeout == maxIdleTimeout && Arrays.equals(t.statelessResetToken, statelessResetToken)
                && t.maxUdpPayloadSize == maxUdpPayloadSize && t.initialMaxData == initialMaxData
                && t.initialMaxStreamDataBidiLocal == initialMaxStreamDataBidiLocal
                && t.initialMaxStreamDataBidiRemote == initialMaxStreamDataBidiRemote
                && t.initialMaxStreamDataUni == initialMaxStreamDataUni && t.initialMaxStreamsBidi == initialMaxStreamsBidi
                && t.initialMaxStreamsUni == initialMaxStreamsUni && t.ackDelayExponent == ackDelayExponent
                && t.maxAckDelay == maxAckDelay && t.disableActiveMigration == disableActiveMigration
                && Objects.equals(t.preferredAddress, preferredAddress) && t.activeConnectionIdLimit == activeConnectionIdLimit
                && Arrays.equals(t.initialSourceConnectionId, initialSourceConnectionId)
                && Arrays.equals(t.retrySourceConnectionId, retrySourceConnectionId)
                && Objects.equals(t.versionInformation, versionInformation) && t.minAckDelay == minAckDelay;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(originalDestinationConnectionId), maxIdleTimeout, Arrays.hashCode(statelessResetToken),
                maxUdpPayloadSize, initialMaxData, initialMaxStreamDataBidiLocal, initialMaxStreamDataBidiRemote,
                initialMaxStreamDataUni, initialMaxStreamsBidi, initialMaxStreamsUni, ackDelayExponent, maxAckDelay,
                disableActiveMigration, preferredAddress, activeConnectionIdLimit, Arrays.hashCode(initialSourceConnectionId),
                Arrays.hashCode(retrySourceConnectionId), versionInformation, minAckDelay);
    }

    /** The parameters as qlog's {@code parameters_set} event names them (draft-ietf-quic-qlog-quic-events §8.2.3). */
    public Map<String, Object> qlogFields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("max_idle_timeout", maxIdleTimeout);
        m.put("max_udp_payload_size", maxUdpPayloadSize);
        m.put("initial_max_data", initialMaxData);
        m.put("initial_max_stream_data_bidi_local", initialMaxStreamDataBidiLocal);
        m.put("initial_max_stream_data_bidi_remote", initialMaxStreamDataBidiRemote);
        m.put("initial_max_stream_data_uni", initialMaxStreamDataUni);
        m.put("initial_max_streams_bidi", initialMaxStreamsBidi);
        m.put("initial_max_streams_uni", initialMaxStreamsUni);
        m.put("ack_delay_exponent", ackDelayExponent);
        m.put("max_ack_delay", maxAckDelay);
        m.put("active_connection_id_limit", activeConnectionIdLimit);
        m.put("disable_active_migration", disableActiveMigration);
        if (minAckDelay >= 0) {
            m.put("min_ack_delay", minAckDelay);
        }
        if (initialSourceConnectionId != null) {
            m.put("initial_source_connection_id", initialSourceConnectionId);
        }
        if (originalDestinationConnectionId != null) {
            m.put("original_destination_connection_id", originalDestinationConnectionId);
        }
        return m;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TransportParameters[");
        if (originalDestinationConnectionId != null) {
            sb.append("odcid=").append(Bytes.hex(originalDestinationConnectionId)).append(", ");
        }
        if (initialSourceConnectionId != null) {
            sb.append("iscid=").append(Bytes.hex(initialSourceConnectionId)).append(", ");
        }
        if (retrySourceConnectionId != null) {
            sb.append("rscid=").append(Bytes.hex(retrySourceConnectionId)).append(", ");
        }
        if (statelessResetToken != null) {
            sb.append("resetToken=").append(Bytes.hex(statelessResetToken)).append(", ");
        }
        sb.append("maxIdleTimeout=").append(maxIdleTimeout).append("ms, maxUdpPayloadSize=").append(maxUdpPayloadSize)
                .append(", initialMaxData=").append(initialMaxData)
                .append(", initialMaxStreamData(bidiLocal/bidiRemote/uni)=").append(initialMaxStreamDataBidiLocal).append('/')
                .append(initialMaxStreamDataBidiRemote).append('/').append(initialMaxStreamDataUni)
                .append(", initialMaxStreams(bidi/uni)=").append(initialMaxStreamsBidi).append('/').append(initialMaxStreamsUni)
                .append(", ackDelayExponent=").append(ackDelayExponent).append(", maxAckDelay=").append(maxAckDelay)
                .append("ms, activeConnectionIdLimit=").append(activeConnectionIdLimit);
        if (disableActiveMigration) {
            sb.append(", disableActiveMigration");
        }
        if (preferredAddress != null) {
            sb.append(", ").append(preferredAddress);
        }
        if (versionInformation != null) {
            sb.append(", ").append(versionInformation);
        }
        if (minAckDelay >= 0) {
            sb.append(", minAckDelay=").append(minAckDelay).append("us");
        }
        return sb.append(']').toString();
    }

    /** Mutable builder; starts from the §18.2 defaults. */
    public static final class Builder {
        private byte[] originalDestinationConnectionId;
        private long maxIdleTimeout;
        private byte[] statelessResetToken;
        private long maxUdpPayloadSize = DEFAULT_MAX_UDP_PAYLOAD_SIZE;
        private long initialMaxData;
        private long initialMaxStreamDataBidiLocal;
        private long initialMaxStreamDataBidiRemote;
        private long initialMaxStreamDataUni;
        private long initialMaxStreamsBidi;
        private long initialMaxStreamsUni;
        private long ackDelayExponent = DEFAULT_ACK_DELAY_EXPONENT;
        private long maxAckDelay = DEFAULT_MAX_ACK_DELAY;
        private boolean disableActiveMigration;
        private PreferredAddress preferredAddress;
        private long activeConnectionIdLimit = DEFAULT_ACTIVE_CONNECTION_ID_LIMIT;
        private byte[] initialSourceConnectionId;
        private byte[] retrySourceConnectionId;
        private VersionInformation versionInformation;
        private long minAckDelay = -1;

        private Builder() {
        }

        public Builder originalDestinationConnectionId(byte[] v) { originalDestinationConnectionId = v; return this; }
        public Builder maxIdleTimeout(long ms) { maxIdleTimeout = ms; return this; }
        public Builder statelessResetToken(byte[] v) { statelessResetToken = v; return this; }
        public Builder maxUdpPayloadSize(long v) { maxUdpPayloadSize = v; return this; }
        public Builder initialMaxData(long v) { initialMaxData = v; return this; }
        public Builder initialMaxStreamDataBidiLocal(long v) { initialMaxStreamDataBidiLocal = v; return this; }
        public Builder initialMaxStreamDataBidiRemote(long v) { initialMaxStreamDataBidiRemote = v; return this; }
        public Builder initialMaxStreamDataUni(long v) { initialMaxStreamDataUni = v; return this; }
        public Builder initialMaxStreamsBidi(long v) { initialMaxStreamsBidi = v; return this; }
        public Builder initialMaxStreamsUni(long v) { initialMaxStreamsUni = v; return this; }
        public Builder ackDelayExponent(long v) { ackDelayExponent = v; return this; }
        public Builder maxAckDelay(long ms) { maxAckDelay = ms; return this; }
        public Builder disableActiveMigration(boolean v) { disableActiveMigration = v; return this; }
        public Builder preferredAddress(PreferredAddress v) { preferredAddress = v; return this; }
        public Builder activeConnectionIdLimit(long v) { activeConnectionIdLimit = v; return this; }
        public Builder initialSourceConnectionId(byte[] v) { initialSourceConnectionId = v; return this; }
        public Builder retrySourceConnectionId(byte[] v) { retrySourceConnectionId = v; return this; }
        public Builder versionInformation(VersionInformation v) { versionInformation = v; return this; }
        /** min_ack_delay in microseconds; -1 leaves it out (no ACK frequency support announced). */
        public Builder minAckDelay(long micros) { minAckDelay = micros; return this; }

        String violation() {
            return TransportParameters.violation(originalDestinationConnectionId, maxIdleTimeout, statelessResetToken,
                    maxUdpPayloadSize, initialMaxData, initialMaxStreamDataBidiLocal, initialMaxStreamDataBidiRemote,
                    initialMaxStreamDataUni, initialMaxStreamsBidi, initialMaxStreamsUni, ackDelayExponent, maxAckDelay,
                    activeConnectionIdLimit, initialSourceConnectionId, retrySourceConnectionId) instanceof String p
                    ? p : preferredAddress != null && initialSourceConnectionId != null && initialSourceConnectionId.length == 0
                    // RFC 9000 §18.2: "A server that chooses a zero-length connection ID MUST NOT provide a preferred
                    // address. Similarly, a server MUST NOT include a zero-length connection ID in this transport
                    // parameter. A client MUST treat a violation of these requirements as a connection error of type
                    // TRANSPORT_PARAMETER_ERROR."
                    ? "preferred_address from a server with a zero-length connection ID (RFC 9000 §18.2)"
                    : minAckDelayViolation(minAckDelay, maxAckDelay);
        }

        /** @throws IllegalArgumentException when a value breaks a §18.2 rule */
        public TransportParameters build() {
            return new TransportParameters(originalDestinationConnectionId, maxIdleTimeout, statelessResetToken,
                    maxUdpPayloadSize, initialMaxData, initialMaxStreamDataBidiLocal, initialMaxStreamDataBidiRemote,
                    initialMaxStreamDataUni, initialMaxStreamsBidi, initialMaxStreamsUni, ackDelayExponent, maxAckDelay,
                    disableActiveMigration, preferredAddress, activeConnectionIdLimit, initialSourceConnectionId,
                    retrySourceConnectionId, versionInformation, minAckDelay);
        }
    }
}
