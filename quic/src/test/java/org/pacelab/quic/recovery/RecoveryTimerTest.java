package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.pacing.PacingConfig;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.stream.CryptoDataSent;

/** The loss-detection timer and the probe timeout as Recovery owns them (RFC 9002 §6.2, §A.8, §A.9). */
class RecoveryTimerTest {
    private static final long MS = 1_000_000L;
    private static final Recovery.HandshakeStatus CONFIRMED_SERVER =
            new Recovery.HandshakeStatus(false, false, true, true, false, false);

    private final PacketNumberSpace[] spaces = PacketNumberSpace.all(2, 25_000_000L);
    private final RttEstimator rtt = new RttEstimator(100 * MS);
    private final Recovery recovery = new Recovery(rtt, spaces,
            CongestionSetup.create(ControllerConfig.fromOptions(Map.of("--cc", "newreno")),
                    PacingConfig.fromOptions(Map.of("--pacer", "none")), 1200),
            QlogSink.NONE);

    private SentPacket send(PacketSpace space, long sentAt) {
        SentPacket p = new SentPacket(space, spaces[space.ordinal()].takePacketNumber(), sentAt, sentAt, 1200, true,
                true, List.of());
        recovery.onPacketSent(p, sentAt);
        return p;
    }

    @Test
    void nothingInFlightArmsNoTimerOnceTheAddressIsValidated() {
        assertEquals(Long.MAX_VALUE, recovery.lossDetectionTimer(CONFIRMED_SERVER));
    }

    @Test
    void aServerAtTheAmplificationLimitArmsNoTimer() {
        send(PacketSpace.INITIAL, 0);
        Recovery.HandshakeStatus limited = new Recovery.HandshakeStatus(false, false, false, true, true, false);
        assertEquals(Long.MAX_VALUE, recovery.lossDetectionTimer(limited));
        Recovery.HandshakeStatus free = new Recovery.HandshakeStatus(false, false, false, true, false, false);
        // PTO = smoothed_rtt + 4 * rttvar = 100 + 4 * 50 ms (no max_ack_delay before the handshake is confirmed)
        assertEquals(300 * MS, recovery.lossDetectionTimer(free));
    }

    @Test
    void aClientWithNothingInFlightArmsTheAntiDeadlockProbe() {
        Recovery.HandshakeStatus client = new Recovery.HandshakeStatus(true, true, false, false, false, false);
        long timer = recovery.lossDetectionTimer(client);
        assertEquals(300 * MS, timer);
        Recovery.Timeout t = recovery.onLossDetectionTimeout(client, timer);
        assertTrue(t.lost().isEmpty());
        // RFC 9002 §6.2.2.1: a Handshake packet when the client has Handshake keys
        assertEquals(2, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
        assertEquals(0, spaces[PacketSpace.INITIAL.ordinal()].probesToSend());
    }

    @Test
    void aPtoAsksForTwoProbesCarryingTheOldestDataAndBacksOff() {
        SentPacket first = send(PacketSpace.APPLICATION, 0);
        SentPacket second = send(PacketSpace.APPLICATION, 10 * MS);
        send(PacketSpace.APPLICATION, 20 * MS);
        // PTO = 300 ms + max_ack_delay 25 ms after the last ack-eliciting packet (RFC 9002 §6.2.1)
        long timer = recovery.lossDetectionTimer(CONFIRMED_SERVER);
        assertEquals(20 * MS + 325 * MS, timer);
        Recovery.Timeout t = recovery.onLossDetectionTimeout(CONFIRMED_SERVER, timer);
        assertEquals(List.of(first, second), t.resend());
        assertEquals(2, spaces[PacketSpace.APPLICATION.ordinal()].probesToSend());
        // the next PTO is twice as long
        assertEquals(20 * MS + 2 * 325 * MS, recovery.lossDetectionTimer(CONFIRMED_SERVER));
    }

    @Test
    void aServersHandshakePtoProbesTheInitialSpaceWithTheHandshakeDataWhileItsInitialDataIsInFlight() {
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, true);
        // the ServerHello's Initial, then the Handshake flight; the Handshake space's PTO comes first (the
        // interop runner's handshakecorruption: a Handshake PING left 0.5 ms before the Initial PING of a probe)
        SentPacket serverHello = send(PacketSpace.INITIAL, 10 * MS);
        SentPacket certificate = send(PacketSpace.HANDSHAKE, 0);
        SentPacket finished = send(PacketSpace.HANDSHAKE, MS);
        long timer = recovery.lossDetectionTimer(server);
        assertEquals(MS + 300 * MS, timer);
        Recovery.Timeout t = recovery.onLossDetectionTimeout(server, timer);
        // RFC 9002 §6.2.4: the probes carry the ServerHello, and the Handshake data in flight goes with it
        assertEquals(List.of(serverHello, certificate, finished), t.resend());
        // one probe in each space, as ngtcp2's server: a second Initial probe would be a padded PING
        assertEquals(1, spaces[PacketSpace.INITIAL.ordinal()].probesToSend());
        assertEquals(1, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
    }

    @Test
    void onceTheInitialDataIsAcknowledgedAHandshakePtoProbesTheHandshakeSpace() {
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, false);
        // an Initial PING probe still in flight (the client dropped its Initial keys before it arrived) does not
        // divert the Handshake space's PTO: the ServerHello it would carry has been acknowledged
        SentPacket certificate = send(PacketSpace.HANDSHAKE, 0);
        send(PacketSpace.INITIAL, 10 * MS);
        long timer = recovery.lossDetectionTimer(server);
        Recovery.Timeout t = recovery.onLossDetectionTimeout(server, timer);
        assertEquals(List.of(certificate), t.resend());
        assertEquals(0, spaces[PacketSpace.INITIAL.ordinal()].probesToSend());
        assertEquals(2, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
    }

    @Test
    void aClientInitialProbeSendsTheServersHandshakeDataAtOnceWithoutBackingOffThePto() {
        Recovery.HandshakeStatus acknowledged = new Recovery.HandshakeStatus(false, true, false, true, false, false);
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, true);
        SentPacket serverHello = send(PacketSpace.INITIAL, 0);
        SentPacket certificate = send(PacketSpace.HANDSHAKE, 0);
        long timer = recovery.lossDetectionTimer(server);
        // nothing to speed up while the ServerHello is acknowledged (a PING-only Initial in flight is no reason)
        assertEquals(List.of(), recovery.onClientInitialProbe(acknowledged, 10 * MS));
        // RFC 9002 §6.2.3: one probe in each space, with the unacknowledged data, at once
        assertEquals(List.of(serverHello, certificate), recovery.onClientInitialProbe(server, 10 * MS));
        assertEquals(1, spaces[PacketSpace.INITIAL.ordinal()].probesToSend());
        assertEquals(1, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
        assertEquals(timer, recovery.lossDetectionTimer(server), "the PTO is not backed off");
        assertEquals(0, recovery.loss().ptoCount());
    }

    /** A packet with {@code length} bytes of the space's CRYPTO data from {@code offset}, as the connection records it. */
    private SentPacket sendCrypto(PacketSpace space, long sentAt, long offset, int length) {
        EncryptionLevel level = space == PacketSpace.INITIAL ? EncryptionLevel.INITIAL : EncryptionLevel.HANDSHAKE;
        SentPacket p = new SentPacket(space, spaces[space.ordinal()].takePacketNumber(), sentAt, sentAt, 1200, true,
                true, List.of(new CryptoDataSent(level, offset, length)));
        recovery.onPacketSent(p, sentAt);
        if (spaces[space.ordinal()].probesToSend() > 0) {
            spaces[space.ordinal()].onProbeSent();
        }
        return p;
    }

    @Test
    void aServerAnswersAClientProbeOnlyWhenTheNewestCopyOfItsInitialDataIsOlderThanOnePto() {
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, true);
        PacketNumberSpace initial = spaces[PacketSpace.INITIAL.ordinal()];
        // the first flight, its ServerHello in two Initial packets, is no copy: the first client probe after it is
        // answered at once (RFC 9002 §6.2.3: one early retransmission recovers a single loss)
        SentPacket serverHello = sendCrypto(PacketSpace.INITIAL, 0, 0, 100);
        SentPacket rest = sendCrypto(PacketSpace.INITIAL, 0, 100, 50);
        SentPacket certificate = sendCrypto(PacketSpace.HANDSHAKE, 0, 0, 1000);
        assertEquals(Long.MIN_VALUE, initial.lastCryptoCopySent());
        assertEquals(List.of(serverHello, rest, certificate), recovery.onClientInitialProbe(server, 10 * MS));
        // the answer goes out: copies of the ServerHello and the Handshake data
        sendCrypto(PacketSpace.INITIAL, 10 * MS, 0, 150);
        SentPacket certificateAgain = sendCrypto(PacketSpace.HANDSHAKE, 10 * MS, 0, 1000);
        assertEquals(10 * MS, initial.lastCryptoCopySent());
        // a burst of client packets within one PTO of that copy (100 + 4 × 50 ms, §6.2.1) draws nothing more
        assertEquals(List.of(), recovery.onClientInitialProbe(server, 11 * MS));
        assertEquals(List.of(), recovery.onClientInitialProbe(server, 309 * MS));
        // the server's own PTO fires one PTO after the answer (pto_count 1) and sends its copies at t
        long t = recovery.lossDetectionTimer(server);
        assertEquals(310 * MS, t);
        recovery.onLossDetectionTimeout(server, t);
        assertEquals(1, recovery.loss().ptoCount());
        sendCrypto(PacketSpace.INITIAL, t, 0, 150);
        sendCrypto(PacketSpace.HANDSHAKE, t, 0, 1000);
        assertEquals(t, initial.lastCryptoCopySent());
        // a client PING 1 ms later draws no second flight (before, only the earlier answers counted, and it did)
        assertEquals(List.of(), recovery.onClientInitialProbe(server, t + MS));
        assertEquals(List.of(), recovery.onClientInitialProbe(server, t + 299 * MS));
        assertEquals(0, initial.probesToSend());
        // one un-backed-off PTO after the copy a client probe draws the flight, before the backed-off timer (t + 600 ms)
        assertEquals(t + 600 * MS, recovery.lossDetectionTimer(server));
        assertEquals(List.of(serverHello, rest, certificate, certificateAgain),
                recovery.onClientInitialProbe(server, t + 300 * MS));
        assertEquals(1, initial.probesToSend());
        assertEquals(1, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
        assertEquals(1, recovery.loss().ptoCount(), "a client's probe neither resets nor advances the backoff");
        assertEquals(t + 600 * MS, recovery.lossDetectionTimer(server), "nor moves the timer before the copy is sent");
    }

    @Test
    void aClientProbeJustAfterTheServersPtoCopyDrawsNoSecondFlight() {
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, true);
        PacketNumberSpace initial = spaces[PacketSpace.INITIAL.ordinal()];
        SentPacket serverHello = sendCrypto(PacketSpace.INITIAL, 0, 0, 100);
        SentPacket certificate = sendCrypto(PacketSpace.HANDSHAKE, 0, 0, 1000);
        // no client probe came before the server's PTO (300 ms), which sends the flight again at t
        long t = recovery.lossDetectionTimer(server);
        assertEquals(300 * MS, t);
        assertEquals(List.of(serverHello, certificate), recovery.onLossDetectionTimeout(server, t).resend());
        SentPacket serverHelloAgain = sendCrypto(PacketSpace.INITIAL, t, 0, 100);
        SentPacket certificateAgain = sendCrypto(PacketSpace.HANDSHAKE, t, 0, 1000);
        assertEquals(t, initial.lastCryptoCopySent());
        // the client's PING 1 ms later (sent before the copy could reach the client) draws nothing
        assertEquals(List.of(), recovery.onClientInitialProbe(server, t + MS));
        assertEquals(0, initial.probesToSend());
        // one un-backed-off PTO and a nanosecond after the copy, the client still lacks it: the flight goes again
        assertEquals(List.of(serverHello, serverHelloAgain, certificate, certificateAgain),
                recovery.onClientInitialProbe(server, t + 300 * MS + 1));
        assertEquals(1, initial.probesToSend());
        assertEquals(1, recovery.loss().ptoCount());
    }

    @Test
    void aHandshakeOnlyCopyHoldsBackTheAnswerToAClientProbeForOnePto() {
        Recovery.HandshakeStatus server = new Recovery.HandshakeStatus(false, true, false, true, false, true);
        PacketNumberSpace initial = spaces[PacketSpace.INITIAL.ordinal()];
        PacketNumberSpace handshake = spaces[PacketSpace.HANDSHAKE.ordinal()];
        SentPacket serverHello = sendCrypto(PacketSpace.INITIAL, 0, 0, 100);
        SentPacket certificate = sendCrypto(PacketSpace.HANDSHAKE, 0, 0, 1000);
        // the Handshake data alone goes again at t (as its loss recovery sends it); the Initial space copied nothing
        long t = 50 * MS;
        SentPacket certificateAgain = sendCrypto(PacketSpace.HANDSHAKE, t, 0, 1000);
        assertEquals(Long.MIN_VALUE, initial.lastCryptoCopySent());
        assertEquals(t, handshake.lastCryptoCopySent());
        // a client PING 1 ms later would double the Handshake copy: no flight (RFC 9002 §6.2.3)
        assertEquals(List.of(), recovery.onClientInitialProbe(server, t + MS));
        assertEquals(0, initial.probesToSend());
        assertEquals(0, handshake.probesToSend());
        // one un-backed-off PTO (100 + 4 × 50 ms, §6.2.1) and a nanosecond after the copy: the flight goes
        assertEquals(List.of(serverHello, certificate, certificateAgain),
                recovery.onClientInitialProbe(server, t + 300 * MS + 1));
        assertEquals(1, initial.probesToSend());
        assertEquals(1, handshake.probesToSend());
        assertEquals(0, recovery.loss().ptoCount());
    }

    @Test
    void aClientDoesNotSpeedUpOnRepeatedServerHellos() {
        send(PacketSpace.INITIAL, 0);
        assertEquals(List.of(), recovery.onClientInitialProbe(new Recovery.HandshakeStatus(true, false, false, false, false, true), 0));
        assertEquals(0, spaces[PacketSpace.INITIAL.ordinal()].probesToSend());
    }

    @Test
    void theLossTimeComesBeforeThePtoAndDeclaresLoss() {
        SentPacket lost = send(PacketSpace.APPLICATION, 0);
        send(PacketSpace.APPLICATION, 50 * MS);
        send(PacketSpace.APPLICATION, 60 * MS);
        // the last packet is acknowledged at 160 ms: RTT 100 ms; the first is lost after 9/8 RTT
        recovery.onAck(PacketSpace.APPLICATION, new long[] {2, 2}, 0, CONFIRMED_SERVER, 160 * MS);
        long timer = recovery.lossDetectionTimer(CONFIRMED_SERVER);
        assertEquals(50 * MS + 9 * 100 * MS / 8, timer);
        Recovery.Timeout t = recovery.onLossDetectionTimeout(CONFIRMED_SERVER, timer);
        assertTrue(t.resend().isEmpty());
        assertEquals(1, t.lost().size());
        assertEquals(1, t.lost().get(0).packetNumber);
        assertTrue(lost.declaredLost, "packet 0 went at 160 ms already (sent 9/8 RTT before)");
    }
}
