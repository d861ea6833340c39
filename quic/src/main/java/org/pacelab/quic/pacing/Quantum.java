package org.pacelab.quic.pacing;

/**
 * How many bytes a pacer may release back-to-back ({@code --quantum}).
 *
 * <ul>
 *   <li>{@code auto}: the controller's own send quantum when it has one (BBR), else
 *       clamp(rate * 1 ms, 2 * mds, 64 KiB), the send-quantum rule of draft-ietf-ccwg-bbr
 *       (§"Send Quantum"); with no rate yet, 2 * mds;</li>
 *   <li>a fixed size in bytes ({@code 2400b}, {@code 16k}) or packets ({@code 2p}), never less than one
 *       packet.</li>
 * </ul>
 */
public sealed interface Quantum {
    /** 1 ms worth of the pacing rate, the time base of the automatic quantum. */
    long AUTO_INTERVAL_NANOS = 1_000_000L;
    /** Upper bound of the automatic quantum: 64 KiB. */
    long AUTO_MAX_BYTES = 64 * 1024;

    Quantum AUTO = new Auto();

    /** The quantum in bytes. */
    long bytes(long rateBytesPerSecond, int maxDatagramSize, long controllerQuantum);

    /** The option value that produces this quantum. */
    String optionValue();

    /** See {@link Quantum}. */
    record Auto() implements Quantum {
        @Override
        public long bytes(long rate, int mds, long controllerQuantum) {
            if (controllerQuantum > 0) {
                return Math.max(controllerQuantum, mds);
            }
            long q = rate > 0 ? rate / (1_000_000_000L / AUTO_INTERVAL_NANOS) : 0;
            return Math.max(Math.min(q, AUTO_MAX_BYTES), 2L * mds);
        }

        @Override
        public String optionValue() { return "auto"; }
    }

    /** A fixed quantum. */
    record Fixed(TcUnits.Size size) implements Quantum {
        public Fixed {
            if (size.value() < 1) {
                throw new IllegalArgumentException("--quantum: must be at least 1 byte or 1 packet, got " + size.text() + ".");
            }
        }

        @Override
        public long bytes(long rate, int mds, long controllerQuantum) {
            return Math.max(size.bytes(mds), mds);
        }

        @Override
        public String optionValue() { return size.text(); }
    }

    /** Parses a {@code --quantum} value: {@code auto} or a size. */
    static Quantum parse(String text) {
        if (text != null && text.trim().equalsIgnoreCase("auto")) {
            return AUTO;
        }
        TcUnits.Size size;
        try {
            size = TcUnits.parseSize(PacingConfig.QUANTUM, text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PacingConfig.QUANTUM + ": '" + text + "' is not a quantum; write auto, "
                    + "bytes (2400, 2400b), KiB (16k) or packets (2p).", e);
        }
        return new Fixed(size);
    }
}
