package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.pacing.PacingConfig;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.CongestionSetup;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.recovery.SentPacket;
import org.pacelab.quic.stream.SendBuffer;

/** The handshake's progress and the keys it lets go (RFC 9001 §4.1.2, §4.9; RFC 9002 §6.4, §A.6). */
class HandshakeProgressTest {
    private static final long MS = 1_000_000L;

    private final PacketNumberSpace[] spaces = PacketNumberSpace.all(2, 25 * MS);
    private final Recovery recovery = new Recovery(new RttEstimator(100 * MS), spaces,
            CongestionSetup.create(ControllerConfig.fromOptions(Map.of("--cc", "newreno")),
                    PacingConfig.fromOptions(Map.of("--pacer", "none")), 1200),
            QlogSink.NONE);
    private final SendBuffer initialCrypto = new SendBuffer(1 << 16);

    private HandshakeProgress progress(boolean isClient, KeySchedule keys, AmplificationLimit amplification) {
        return new HandshakeProgress(isClient, keys, spaces, recovery, amplification, initialCrypto);
    }

    private static KeySchedule keysUpToHandshake(boolean isClient) {
        KeySchedule keys = new KeySchedule(isClient);
        keys.installInitial(new byte[8]);
        keys.install(EncryptionLevel.HANDSHAKE, CipherSuite.AES_128_GCM_SHA256, new byte[32], new byte[32]);
        return keys;
    }

    private void sendInFlight(PacketSpace space, long at) {
        SentPacket p = new SentPacket(space, spaces[space.ordinal()].takePacketNumber(), at, at, 1000, true, true,
                List.of());
        recovery.onPacketSent(p, at);
    }

    @Test
    void aServerConfirmsAtItsNextSendAfterCompletingAndThenDropsItsHandshakeState() {
        KeySchedule keys = keysUpToHandshake(false);
        HandshakeProgress p = progress(false, keys, new AmplificationLimit(true));
        sendInFlight(PacketSpace.HANDSHAKE, 0);
        spaces[PacketSpace.HANDSHAKE.ordinal()].requestProbes(2);
        assertFalse(p.takeConfirmationDue());

        p.onComplete();
        assertTrue(p.complete());
        assertFalse(p.confirmed());
        assertTrue(p.takeConfirmationDue());
        assertFalse(p.takeConfirmationDue(), "taken once");

        assertTrue(p.confirm(10 * MS));
        assertTrue(p.confirmed());
        // RFC 9001 §4.9.2: the Handshake keys go; RFC 9002 §6.4: its packets no longer count in flight, no probes owed
        assertFalse(keys.hasTx(EncryptionLevel.HANDSHAKE));
        assertFalse(keys.hasRx(EncryptionLevel.HANDSHAKE));
        assertEquals(0, recovery.bytesInFlight());
        assertEquals(0, spaces[PacketSpace.HANDSHAKE.ordinal()].probesToSend());
        assertTrue(keys.hasTx(EncryptionLevel.INITIAL), "confirmation drops only the Handshake level");
        assertFalse(p.confirm(20 * MS), "confirmed once");
    }

    @Test
    void aClientIsConfirmedOnlyByHandshakeDone() {
        HandshakeProgress p = progress(true, keysUpToHandshake(true), new AmplificationLimit(true));
        p.onComplete();
        assertTrue(p.complete());
        assertFalse(p.takeConfirmationDue(), "a client waits for HANDSHAKE_DONE (RFC 9001 §4.1.2)");
        assertFalse(p.confirmed());
    }

    @Test
    void aClientDropsItsInitialKeysWithItsFirstHandshakePacketAServerDoesNot() {
        KeySchedule clientKeys = keysUpToHandshake(true);
        HandshakeProgress client = progress(true, clientKeys, new AmplificationLimit(true));
        client.onPacketSent(EncryptionLevel.INITIAL, 0);
        assertTrue(clientKeys.hasTx(EncryptionLevel.INITIAL));
        client.onPacketSent(EncryptionLevel.HANDSHAKE, 0);
        assertFalse(clientKeys.hasTx(EncryptionLevel.INITIAL));
        assertFalse(clientKeys.hasRx(EncryptionLevel.INITIAL));
        assertTrue(clientKeys.hasTx(EncryptionLevel.HANDSHAKE));

        KeySchedule serverKeys = keysUpToHandshake(false);
        HandshakeProgress server = progress(false, serverKeys, new AmplificationLimit(false));
        server.onPacketSent(EncryptionLevel.HANDSHAKE, 0);
        assertTrue(serverKeys.hasTx(EncryptionLevel.INITIAL), "a server drops them on receiving a Handshake packet");
    }

    @Test
    void aServerReceivingAHandshakePacketValidatesTheAddressAndDropsInitialState() {
        KeySchedule keys = keysUpToHandshake(false);
        AmplificationLimit amplification = new AmplificationLimit(false);
        HandshakeProgress p = progress(false, keys, amplification);
        sendInFlight(PacketSpace.INITIAL, 0);
        assertEquals(1000, recovery.bytesInFlight());

        p.onHandshakePacketReceived(5 * MS);
        assertTrue(amplification.validated());
        assertFalse(keys.hasTx(EncryptionLevel.INITIAL));
        assertEquals(0, recovery.bytesInFlight());
        // a second discard of a level already gone changes nothing
        sendInFlight(PacketSpace.HANDSHAKE, 6 * MS);
        p.discard(EncryptionLevel.INITIAL, 7 * MS);
        assertEquals(1000, recovery.bytesInFlight());
    }

    @Test
    void theStatusTellsRecoveryWhatTheClientKnowsOfItsAddressAndInitialData() {
        KeySchedule keys = keysUpToHandshake(true);
        HandshakeProgress p = progress(true, keys, new AmplificationLimit(true));
        initialCrypto.write(new byte[300]);

        Recovery.HandshakeStatus s = p.status();
        assertTrue(s.isClient());
        assertTrue(s.hasHandshakeKeys());
        assertFalse(s.handshakeConfirmed());
        assertFalse(s.peerCompletedAddressValidation());
        assertFalse(s.atAmplificationLimit());
        assertTrue(s.initialDataUnacked());

        // RFC 9002 §A.6: an acknowledged Handshake packet shows the server validated our address
        p.onHandshakeAcked();
        assertTrue(p.status().peerCompletedAddressValidation());
        // without Initial keys, unacknowledged Initial data no longer keeps the timer
        p.discard(EncryptionLevel.INITIAL, 0);
        assertFalse(p.status().initialDataUnacked());
    }

    @Test
    void aServerAlwaysCountsItsAddressAsValidatedAndReportsTheAmplificationLimit() {
        AmplificationLimit amplification = new AmplificationLimit(false);
        HandshakeProgress p = progress(false, keysUpToHandshake(false), amplification);
        p.onHandshakeAcked();
        Recovery.HandshakeStatus s = p.status();
        assertTrue(s.peerCompletedAddressValidation());
        // nothing received yet: three times nothing is nothing
        assertTrue(s.atAmplificationLimit());
        amplification.onReceived(1200);
        assertFalse(p.status().atAmplificationLimit());
    }
}
