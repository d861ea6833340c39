package org.pacelab.quic;

import java.util.Arrays;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the quic_transport_parameters extension (RFC 9000 §18): decoding raises only
 * {@link QuicException} (TRANSPORT_PARAMETER_ERROR), and what decodes re-encodes to parameters that decode the same.
 */
class TransportParametersFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decode(FuzzedDataProvider input) {
        boolean sentByServer = input.consumeBoolean();
        byte[] data = input.consumeRemainingAsBytes();
        TransportParameters p;
        try {
            p = TransportParameters.decode(data, sentByServer);
        } catch (QuicException e) {
            return;
        }
        byte[] encoded = p.encode();
        TransportParameters again;
        try {
            again = TransportParameters.decode(encoded, sentByServer);
        } catch (QuicException e) {
            throw new AssertionError("re-encoded parameters do not decode: " + e.getMessage(), e);
        }
        if (!Arrays.equals(encoded, again.encode())) {
            throw new AssertionError("decode(encode(p)) differs from p: " + p + " vs " + again);
        }
    }
}
