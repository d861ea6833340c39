package org.pacelab.analysis.testing;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.wire.VarInt;

/**
 * A made-up QUIC v1 connection whose packets are protected for real (RFC 9001): Initial packets carrying the start
 * of a ClientHello and a ServerHello, Handshake and 1-RTT packets protected with random traffic secrets that
 * {@link #keyLog()} reveals. Lets tests check packet-number recovery for every cipher suite, coalescing and key
 * updates without a real peer.
 */
public final class SyntheticQuic {
    private final CipherSuite suite;
    private final int suiteCode;
    public final byte[] clientRandom = new byte[32];
    public final byte[] odcid = new byte[8];
    public final byte[] clientCid = new byte[5];
    public final byte[] serverCid = new byte[8];
    private final byte[] clientHs;
    private final byte[] serverHs;
    private final byte[] clientApp;
    private final byte[] serverApp;
    private final PacketKeys serverAppKeys;
    private final PacketKeys serverAppKeysNext;
    private final PacketKeys clientAppKeys;

    public SyntheticQuic(CipherSuite suite, long seed) {
        this(suite, suite.tlsCode(), seed);
    }

    /** {@code suiteCode} is what the ServerHello announces (e.g. 0x1304, AES-128-CCM, protected as AES-128-GCM). */
    public SyntheticQuic(CipherSuite suite, int suiteCode, long seed) {
        this.suite = suite;
        this.suiteCode = suiteCode;
        Random r = new Random(seed);
        r.nextBytes(clientRandom);
        r.nextBytes(odcid);
        r.nextBytes(clientCid);
        r.nextBytes(serverCid);
        clientHs = random(r, suite.hashLength());
        serverHs = random(r, suite.hashLength());
        clientApp = random(r, suite.hashLength());
        serverApp = random(r, suite.hashLength());
        serverAppKeys = PacketKeys.fromSecret(suite, serverApp);
        serverAppKeysNext = serverAppKeys.nextGeneration();
        clientAppKeys = PacketKeys.fromSecret(suite, clientApp);
    }

    private static byte[] random(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** The NSS key log lines of this connection. */
    public String keyLog() {
        HexFormat h = HexFormat.of();
        String cr = h.formatHex(clientRandom);
        return "CLIENT_HANDSHAKE_TRAFFIC_SECRET " + cr + " " + h.formatHex(clientHs) + "\n"
                + "SERVER_HANDSHAKE_TRAFFIC_SECRET " + cr + " " + h.formatHex(serverHs) + "\n"
                + "CLIENT_TRAFFIC_SECRET_0 " + cr + " " + h.formatHex(clientApp) + "\n"
                + "SERVER_TRAFFIC_SECRET_0 " + cr + " " + h.formatHex(serverApp) + "\n";
    }

    /** The client's first Initial: a ClientHello start in a CRYPTO frame, padded to 1200 bytes. */
    public byte[] clientInitial(long pn) {
        byte[] hello = new byte[60];
        hello[0] = 1;
        hello[3] = 56;
        hello[4] = 3;
        hello[5] = 3;
        System.arraycopy(clientRandom, 0, hello, 6, 32);
        return longHeader(0, odcid, clientCid, InitialSecrets.clientKeys(odcid), pn, crypto(hello), 1200);
    }

    /** The server's Initial (ServerHello) coalesced with a Handshake packet. */
    public byte[] serverInitialAndHandshake(long initialPn, long handshakePn) {
        byte[] hello = new byte[50];
        hello[0] = 2;
        hello[3] = 46;
        hello[4] = 3;
        hello[5] = 3;
        hello[38] = 0; // empty legacy_session_id_echo
        hello[39] = (byte) (suiteCode >>> 8);
        hello[40] = (byte) suiteCode;
        byte[] initial = longHeader(0, clientCid, serverCid, InitialSecrets.serverKeys(odcid), initialPn, crypto(hello), 0);
        byte[] handshake = longHeader(2, clientCid, serverCid, PacketKeys.fromSecret(suite, serverHs), handshakePn,
                new byte[] {1}, 0);
        return Frames.concat(initial, handshake);
    }

    public byte[] clientHandshake(long pn) {
        return longHeader(2, serverCid, clientCid, PacketKeys.fromSecret(suite, clientHs), pn, new byte[] {1}, 0);
    }

    /** A server 1-RTT packet of {@code size} bytes; key phase 1 uses the updated AEAD keys (same HP key). */
    public byte[] server1Rtt(long pn, long largestAcked, int size, int keyPhase) {
        return shortHeader(clientCid, keyPhase == 0 ? serverAppKeys : serverAppKeysNext, pn, largestAcked, size, keyPhase);
    }

    public byte[] client1Rtt(long pn, long largestAcked) {
        return shortHeader(serverCid, clientAppKeys, pn, largestAcked, 40, 0);
    }

    private static byte[] crypto(byte[] data) {
        ByteBuffer b = ByteBuffer.allocate(data.length + 16);
        FrameCodec.encode(new CryptoFrame(0, data), b);
        return Arrays.copyOf(b.array(), b.position());
    }

    private static byte[] longHeader(int type, byte[] dcid, byte[] scid, PacketKeys keys, long pn, byte[] frames, int padTo) {
        int pnLen = 2;
        int headerBase = 1 + 4 + 1 + dcid.length + 1 + scid.length + (type == 0 ? 1 : 0) + 2;
        int payload = Math.max(frames.length, 4);
        if (padTo > 0) {
            payload = Math.max(payload, padTo - headerBase - pnLen - CipherSuite.TAG_LENGTH);
        }
        ByteBuffer b = ByteBuffer.allocate(headerBase + pnLen + payload + CipherSuite.TAG_LENGTH);
        b.put((byte) (0xC0 | type << 4 | (pnLen - 1))).putInt(1);
        b.put((byte) dcid.length).put(dcid).put((byte) scid.length).put(scid);
        if (type == 0) {
            b.put((byte) 0); // no token
        }
        VarInt.writeWithLength(b, pnLen + payload + CipherSuite.TAG_LENGTH, 2);
        int pnOffset = b.position();
        PacketNumbers.write(b, pn, pnLen);
        int header = b.position();
        b.put(frames);
        keys.seal(b, 0, header, header, payload, pn);
        HeaderProtection.apply(b, 0, pnOffset, keys);
        return b.array();
    }

    private static byte[] shortHeader(byte[] dcid, PacketKeys keys, long pn, long largestAcked, int size, int keyPhase) {
        int pnLen = PacketNumbers.encodedLength(pn, largestAcked);
        int payload = Math.max(4, size - 1 - dcid.length - pnLen - CipherSuite.TAG_LENGTH);
        ByteBuffer b = ByteBuffer.allocate(1 + dcid.length + pnLen + payload + CipherSuite.TAG_LENGTH);
        b.put((byte) (0x40 | keyPhase << 2 | (pnLen - 1))).put(dcid);
        int pnOffset = b.position();
        PacketNumbers.write(b, pn, pnLen);
        int header = b.position();
        b.put((byte) 1); // PING, then PADDING
        keys.seal(b, 0, header, header, payload, pn);
        HeaderProtection.apply(b, 0, pnOffset, keys);
        return b.array();
    }
}
