package org.pacelab.analysis.quic;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.wire.VarInt;

/**
 * Tells a client's Initial packet from a server's: only a client Initial decrypts with the Initial keys derived
 * from its own Destination Connection ID (RFC 9001 §5.2). Works on a copy; the datagram is not modified.
 */
public final class ClientInitialProbe {
    /** The connection IDs of a long-header Initial packet. */
    public record InitialIds(byte[] dcid, byte[] scid) {}

    private ClientInitialProbe() {}

    /** The IDs when the UDP payload at [start, end) starts with a QUIC v1 Initial packet, else null. */
    public static InitialIds initialIds(ByteBuffer b, int start, int end) {
        if (end - start < 7 || (b.get(start) & 0x80) == 0 || ((b.get(start) & 0xff) >>> 4 & 3) != 0) {
            return null;
        }
        int version = (b.get(start + 1) & 0xff) << 24 | (b.get(start + 2) & 0xff) << 16 | (b.get(start + 3) & 0xff) << 8
                | (b.get(start + 4) & 0xff);
        if (version != 1) {
            return null;
        }
        int dcidLen = b.get(start + 5) & 0xff;
        int scidAt = start + 6 + dcidLen + 1;
        if (dcidLen > 20 || scidAt > end) {
            return null;
        }
        int scidLen = b.get(scidAt - 1) & 0xff;
        if (scidLen > 20 || scidAt + scidLen > end) {
            return null;
        }
        byte[] dcid = new byte[dcidLen];
        b.get(start + 6, dcid);
        byte[] scid = new byte[scidLen];
        b.get(scidAt, scid);
        return new InitialIds(dcid, scid);
    }

    /** True when the Initial packet at [start, end) authenticates with the client keys of its DCID. */
    public static boolean isClientInitial(ByteBuffer b, int start, int end) {
        InitialIds ids = initialIds(b, start, end);
        if (ids == null || ids.dcid().length < 8) { // RFC 9000 §7.2: a client's first DCID has at least 8 bytes
            return false;
        }
        byte[] copy = new byte[end - start];
        b.get(start, copy);
        ByteBuffer p = ByteBuffer.wrap(copy);
        ByteBuffer fields = p.duplicate().position(6 + ids.dcid().length + 1 + ids.scid().length);
        long token = VarInt.readOrMinusOne(fields);
        if (token < 0 || token > fields.remaining()) {
            return false;
        }
        fields.position(fields.position() + (int) token);
        long length = VarInt.readOrMinusOne(fields);
        int pnOffset = fields.position();
        if (length < 0 || pnOffset + length > copy.length) {
            return false;
        }
        int packetEnd = (int) (pnOffset + length);
        PacketKeys keys = InitialSecrets.clientKeys(ids.dcid());
        int pnLength = HeaderProtection.remove(p, 0, pnOffset, packetEnd, keys);
        if (pnLength < 0) {
            return false;
        }
        long pn = PacketNumbers.decode(-1, PacketNumbers.read(p, pnOffset, pnLength), pnLength);
        int header = pnOffset + pnLength;
        try {
            keys.open(p, 0, header, header, packetEnd - header, pn);
            return true;
        } catch (AeadException e) {
            return false;
        } finally {
            Arrays.fill(copy, (byte) 0);
        }
    }
}
