package org.pacelab.quic.stream;

import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.packet.EncryptionLevel;

/** What a sent packet remembers of a CRYPTO frame: which bytes of which level's crypto stream. */
public record CryptoDataSent(EncryptionLevel level, long offset, int length) implements Frame {
    @Override
    public long type() { return FrameType.CRYPTO; }
}
