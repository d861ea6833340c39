package org.pacelab.quic.pacing;

/** Pacing {@code none}: every packet may leave as soon as congestion control allows. */
public final class NoPacer implements Pacer {
    @Override
    public String name() { return "none"; }

    @Override
    public long releaseTime(long now, int size) { return now; }

    @Override
    public void onPacketSent(long intendedSendTime, int size) {}

    @Override
    public void update(long now, PacingRate rate) {}
}
