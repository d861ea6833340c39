package org.pacelab.quic.frame;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.pacelab.quic.wire.VarInt;

/** jqwik generators for every v1 frame type with field values in their valid ranges. */
final class FrameArbitraries {
    private FrameArbitraries() {
    }

    static Arbitrary<Long> varint() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 63), Arbitraries.longs().between(0, 16383),
                Arbitraries.longs().between(0, (1L << 30) - 1), Arbitraries.longs().between(0, VarInt.MAX));
    }

    static Arbitrary<byte[]> bytes(int min, int max) {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(min).ofMaxSize(max);
    }

    static Arbitrary<AckFrame> ack() {
        Arbitrary<long[]> gapsAndLengths = Arbitraries.longs().between(0, 300).array(long[].class).ofMaxSize(40);
        Arbitrary<EcnCounts> ecn = Combinators.combine(varint(), varint(), varint()).as(EcnCounts::new).injectNull(0.5);
        return Combinators.combine(Arbitraries.longs().between(0, VarInt.MAX), varint(), Arbitraries.longs().between(0, 1000),
                gapsAndLengths, ecn).as((largest, delay, first, gl, e) -> {
            List<Long> r = new ArrayList<>();
            long hi = largest;
            long lo = Math.max(0, hi - first);
            r.add(hi);
            r.add(lo);
            for (int i = 0; i + 1 < gl.length; i += 2) {
                long nextHi = lo - gl[i] - 2;
                long nextLo = nextHi - gl[i + 1];
                if (nextLo < 0) {
                    break;
                }
                r.add(nextHi);
                r.add(nextLo);
                lo = nextLo;
            }
            return AckFrame.of(delay, r.stream().mapToLong(Long::longValue).toArray(), e);
        });
    }

    static Arbitrary<StreamFrame> stream() {
        return Combinators.combine(varint(), Arbitraries.longs().between(0, VarInt.MAX - 2000), bytes(0, 1500),
                Arbitraries.of(true, false)).as(StreamFrame::new);
    }

    static Arbitrary<String> reason() {
        return Arbitraries.strings().withCharRange(' ', '~').withCharRange('\u00e0', '\u00ff').withCharRange('\u4e00', '\u4e20')
                .ofMaxLength(60);
    }

    /** Every frame type except PADDING (whose prefixes are themselves valid PADDING). */
    static Arbitrary<Frame> nonPadding() {
        List<Arbitrary<? extends Frame>> all = List.of(
                Arbitraries.just(PingFrame.INSTANCE),
                ack(),
                Combinators.combine(varint(), varint(), varint()).as(ResetStreamFrame::new),
                Combinators.combine(varint(), varint()).as(StopSendingFrame::new),
                Combinators.combine(Arbitraries.longs().between(0, VarInt.MAX - 2000), bytes(0, 1500)).as(CryptoFrame::new),
                bytes(1, 200).map(NewTokenFrame::new),
                stream(),
                varint().map(MaxDataFrame::new),
                Combinators.combine(varint(), varint()).as(MaxStreamDataFrame::new),
                Combinators.combine(Arbitraries.of(true, false), Arbitraries.longs().between(0, 1L << 60)).as(MaxStreamsFrame::new),
                varint().map(DataBlockedFrame::new),
                Combinators.combine(varint(), varint()).as(StreamDataBlockedFrame::new),
                Combinators.combine(Arbitraries.of(true, false), Arbitraries.longs().between(0, 1L << 60)).as(StreamsBlockedFrame::new),
                Combinators.combine(varint(), Arbitraries.doubles().between(0, 1), bytes(1, 20), bytes(16, 16))
                        .as((seq, f, cid, token) -> new NewConnectionIdFrame(seq, Math.min(seq, (long) (seq * f)), cid, token)),
                varint().map(RetireConnectionIdFrame::new),
                bytes(8, 8).map(PathChallengeFrame::new),
                bytes(8, 8).map(PathResponseFrame::new),
                Combinators.combine(varint(), varint(), reason()).as((code, type, r) -> new ConnectionCloseFrame(false, code, type, r)),
                Combinators.combine(varint(), reason()).as((code, r) -> new ConnectionCloseFrame(true, code, 0, r)),
                Arbitraries.just(HandshakeDoneFrame.INSTANCE));
        return Arbitraries.oneOf(all);
    }

    static Arbitrary<Frame> any() {
        return Arbitraries.oneOf(nonPadding(), Arbitraries.integers().between(1, 1300).map(PaddingFrame::new));
    }
}
