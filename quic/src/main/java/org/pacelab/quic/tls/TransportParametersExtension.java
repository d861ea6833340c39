package org.pacelab.quic.tls;

import java.nio.ByteBuffer;

import tech.kwik.agent15.alert.DecodeErrorException;
import tech.kwik.agent15.extension.Extension;

/** The TLS extension carrying QUIC transport parameters, codepoint 0x39 (RFC 9001 §8.2). */
public final class TransportParametersExtension extends Extension {
    public static final int CODEPOINT = 0x39;

    private final byte[] encoded;

    public TransportParametersExtension(byte[] encodedParameters) {
        this.encoded = encodedParameters.clone();
    }

    /** Parses the extension at the buffer's position (type, length, data), advancing past it. */
    static TransportParametersExtension parse(ByteBuffer buffer) throws DecodeErrorException {
        if (buffer.remaining() < 4) {
            throw new DecodeErrorException("truncated transport parameters extension");
        }
        int type = buffer.getShort() & 0xffff;
        int length = buffer.getShort() & 0xffff;
        if (type != CODEPOINT || buffer.remaining() < length) {
            throw new DecodeErrorException("malformed transport parameters extension");
        }
        byte[] data = new byte[length];
        buffer.get(data);
        return new TransportParametersExtension(data);
    }

    /** The encoded transport parameters (RFC 9000 §18). */
    public byte[] parameters() {
        return encoded.clone();
    }

    @Override
    public byte[] getBytes() {
        ByteBuffer b = ByteBuffer.allocate(4 + encoded.length);
        b.putShort((short) CODEPOINT);
        b.putShort((short) encoded.length);
        b.put(encoded);
        return b.array();
    }
}
