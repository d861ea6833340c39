package org.pacelab.peers.kwik;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

import tech.kwik.agent15.TlsConstants;

/**
 * The Kwik client's session ticket file ({@code --session-ticket}): the bytes of Kwik 0.10.9's
 * {@code QuicSessionTicket.serialize()}, checked before they go to {@code QuicClientConnection.Builder.sessionTicket(byte[])}.
 * Kwik reads them without bounds checks: a length field is allocated as it stands (a garbled file is an out-of-memory
 * error, a short one a {@code BufferUnderflowException}), so every length is checked here against the bytes there are.
 *
 * <p>The layout Kwik 0.10.9 (with agent15 3.1) writes, big-endian:
 * <pre>
 * QUIC ticket:  u32 L, TLS ticket (L bytes), then the server's transport parameters remembered for 0-RTT
 *               (RFC 9000 §7.4.1): u64 max_idle_timeout, u32 max_udp_payload_size, u64 initial_max_data,
 *               u64 ×3 initial_max_stream_data (bidi local, bidi remote, uni), u64 ×2 initial_max_streams (bidi, uni),
 *               u8 disable_active_migration, u32 active_connection_id_limit  (65 bytes), then 4 unused bytes (Kwik
 *               allocates 69 for the 65 it writes, and neither reads nor checks the rest)
 * TLS ticket:   u64 creation time (ms), u64 ticket_age_add, u32 n, ticket (n bytes), u32 m, resumption PSK (m bytes),
 *               u32 ticket_lifetime, u16 cipher suite, u64 max_early_data_size  (RFC 8446 §4.6.1)
 * </pre>
 */
public final class KwikTicketFile {
    /** The transport parameters after the TLS ticket, and the unused bytes after them: what Kwik writes. */
    static final int TRANSPORT_PARAMETERS = 8 + 4 + 8 + 3 * 8 + 2 * 8 + 1 + 4 + 4;
    /** The TLS ticket's fixed fields: creation time, age add, the two lengths, lifetime, cipher, early data size. */
    static final int TLS_FIXED = 8 + 8 + 4 + 4 + 4 + 2 + 8;
    /** RFC 8446 §4.6.1: {@code opaque ticket<1..2^16-1>}. */
    static final int MAX_TICKET = 0xffff;
    /** The longest file that can hold one: a 64 KiB ticket, a PSK of at most 64 bytes (SHA-512) and the fixed fields. */
    static final int MAX_FILE = 4 + TLS_FIXED + MAX_TICKET + 64 + TRANSPORT_PARAMETERS;

    /** What a ticket file may be, for the messages. */
    static final String VALID = "valid: a ticket file written by an earlier run of pacelab peer "
            + "kwik-client --session-ticket, or a path where none exists yet (the connection then writes one there)";

    private KwikTicketFile() {}

    /**
     * The ticket in {@code file}, checked; null when there is no file yet.
     *
     * @throws IllegalArgumentException one sentence naming the file, what is wrong and what is valid
     * @throws IOException when the file cannot be read
     */
    public static byte[] read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--session-ticket " + file + " is not a regular file; " + VALID);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE + 1);
        }
        String problem = bytes.length > MAX_FILE ? "it is longer than any ticket (" + MAX_FILE + " bytes)" : problem(bytes);
        if (problem != null) {
            throw new IllegalArgumentException("--session-ticket " + file + " is not a Kwik session ticket: " + problem
                    + "; " + VALID);
        }
        return bytes;
    }

    /** What is wrong with {@code b} as a serialized Kwik session ticket, or null when Kwik can read it. */
    static String problem(byte[] b) {
        if (b.length == 0) {
            return "the file is empty";
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        if (b.length < 4 + TLS_FIXED + TRANSPORT_PARAMETERS) {
            return "it is " + b.length + " bytes, shorter than the " + (4 + TLS_FIXED + TRANSPORT_PARAMETERS)
                    + " of a ticket's fixed fields alone";
        }
        long tlsLength = Integer.toUnsignedLong(buf.getInt());
        if (tlsLength != b.length - 4 - TRANSPORT_PARAMETERS) {
            return "its TLS ticket length " + tlsLength + " does not match the file's " + b.length + " bytes (it would be "
                    + (b.length - 4 - TRANSPORT_PARAMETERS) + ")";
        }
        buf.position(4 + 8 + 8);
        long ticket = Integer.toUnsignedLong(buf.getInt());
        if (ticket < 1 || ticket > MAX_TICKET) {
            return "its ticket length " + ticket + " is not 1.." + MAX_TICKET;
        }
        if (ticket > buf.remaining() - (4 + 4 + 2 + 8 + TRANSPORT_PARAMETERS)) {
            return "its ticket length " + ticket + " runs past the end of the TLS ticket";
        }
        buf.position(buf.position() + (int) ticket);
        long psk = Integer.toUnsignedLong(buf.getInt());
        if (psk != buf.remaining() - (4 + 2 + 8 + TRANSPORT_PARAMETERS)) {
            return "its resumption secret length " + psk + " does not match the "
                    + (buf.remaining() - (4 + 2 + 8 + TRANSPORT_PARAMETERS)) + " bytes left for it";
        }
        if (psk < 32 || psk > 64) {
            return "its resumption secret length " + psk + " is not a hash length (32..64 bytes)";
        }
        buf.position(buf.position() + (int) psk + 4);
        short cipher = buf.getShort();
        if (Arrays.stream(TlsConstants.CipherSuite.values()).noneMatch(c -> c.value == cipher)) {
            return "its cipher suite 0x" + HexFormat.of().toHexDigits(cipher) + " is not a TLS 1.3 suite Kwik knows";
        }
        return null;
    }
}
