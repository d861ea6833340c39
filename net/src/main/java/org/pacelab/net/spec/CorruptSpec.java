package org.pacelab.net.spec;

import org.pacelab.net.link.Corruption;

/**
 * Corruption as written: {@code corrupt=P[,burst=N][,within=SIZE][,change=bit|byte]}.
 *
 * @param probability chance that a packet is corrupted
 * @param maxBurst    most packets corrupted in a row (0: no limit)
 * @param within      the changed byte lies in the first {@code within} bytes of the payload (0: anywhere)
 * @param replaceByte a whole byte gets a different random value ({@code change=byte}, the QUIC Interop Runner's
 *                    way) instead of one bit flipped ({@code change=bit}, netem's way, the default)
 */
public record CorruptSpec(double probability, int maxBurst, int within, boolean replaceByte) {
    public static final CorruptSpec NONE = new CorruptSpec(0, 0, 0, false);

    public Corruption create() {
        return probability == 0 ? Corruption.NONE
                : new Corruption(probability, maxBurst, within == 0 ? Integer.MAX_VALUE : within, replaceByte);
    }

    @Override
    public String toString() {
        return (probability * 100) + "%" + (maxBurst > 0 ? ",burst=" + maxBurst : "") + (within > 0 ? ",within=" + within + "b" : "")
                + (replaceByte ? ",change=byte" : "");
    }
}
