package org.pacelab.quic.h3;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.pacelab.quic.h3.qpack.FieldSectionDecoder;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.h3.qpack.QpackException;

/** A response stream's bytes parsed back into header sections, DATA frame count and body, for assertions. */
record ParsedResponse(List<List<HeaderField>> headerSections, int dataFrames, byte[] body) {

    static ParsedResponse parse(byte[] stream) throws H3Exception {
        List<List<HeaderField>> sections = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int[] dataFrames = {0};
        FrameReader reader = new FrameReader(1 << 20);
        reader.consume(ByteBuffer.wrap(stream), new FrameReader.Sink() {
            @Override
            public void frameStarted(long type, long length) {
                if (type == FrameType.DATA) {
                    dataFrames[0]++;
                }
            }

            @Override
            public void dataPayload(ByteBuffer payload) {
                while (payload.hasRemaining()) {
                    body.write(payload.get());
                }
            }

            @Override
            public void frameComplete(H3Frame frame) throws H3Exception {
                if (frame instanceof H3Frame.Headers h) {
                    try {
                        sections.add(FieldSectionDecoder.decode(ByteBuffer.wrap(h.fieldSection())));
                    } catch (QpackException e) {
                        throw new H3Exception(e);
                    }
                }
            }
        });
        if (!reader.atFrameBoundary()) {
            throw new AssertionError("response ends inside a frame");
        }
        return new ParsedResponse(sections, dataFrames[0], body.toByteArray());
    }

    String header(String name) {
        for (HeaderField f : headerSections.get(0)) {
            if (f.name().equals(name)) {
                return f.value();
            }
        }
        return null;
    }

    int status() {
        return Integer.parseInt(header(":status"));
    }
}
