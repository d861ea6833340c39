package org.pacelab.quic.h3;

import java.nio.ByteBuffer;
import org.pacelab.quic.h3.qpack.DecoderStreamReceiver;
import org.pacelab.quic.h3.qpack.EncoderStreamReceiver;
import org.pacelab.quic.h3.qpack.QpackException;

/** A unidirectional stream the peer opened: its type (the first variable-length integer, RFC 9114 §6.2), then its content. */
final class PeerUniStream {
    final long id;
    private final VarIntReader typeReader = new VarIntReader();
    private long type = -1;
    private ControlStreamReceiver control;
    private EncoderStreamReceiver encoder;
    private DecoderStreamReceiver decoder;

    PeerUniStream(long id) {
        this.id = id;
    }

    /** Reads the stream type from {@code data}; returns whether it is now known. */
    boolean readType(ByteBuffer data) {
        if (type < 0 && typeReader.read(data)) {
            type = typeReader.value();
        }
        return type >= 0;
    }

    long type() {
        return type;
    }

    void becomeControl(ControlStreamReceiver receiver) {
        control = receiver;
    }

    void becomeEncoder() {
        encoder = new EncoderStreamReceiver();
    }

    void becomeDecoder() {
        decoder = new DecoderStreamReceiver();
    }

    /** Control and QPACK streams must stay open for the whole connection (RFC 9114 §6.2.1, RFC 9204 §4.2). */
    boolean isCritical() {
        return control != null || encoder != null || decoder != null;
    }

    /** Processes the remaining bytes of {@code data}; streams of other types drop them. */
    void receive(ByteBuffer data) throws H3Exception {
        try {
            if (control != null) {
                control.receive(data);
            } else if (encoder != null) {
                encoder.receive(data);
            } else if (decoder != null) {
                decoder.receive(data);
            } else {
                data.position(data.limit());
            }
        } catch (QpackException e) {
            throw new H3Exception(e);
        }
    }
}
