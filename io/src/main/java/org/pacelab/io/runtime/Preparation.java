package org.pacelab.io.runtime;

import org.pacelab.net.sys.Libc;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.tls.HandshakeRehearsal;
import org.pacelab.quic.tls.TlsConfig;

/**
 * One-time work of a process's first connection, done on daemon set-up threads while the process does other work
 * (picocli's parsing of the options, reading the certificate, waiting for a client), so that the connection finds it
 * done. Each piece is a class's initialisation or has its own objects, so a connection that gets there first waits for
 * it or does its own, never the same work twice in a way that changes a result. A piece that fails is dropped silently:
 * the connection meets the same failure and reports it. Used by the CLI's {@code client}, {@code server} and
 * {@code sim} (docs/benchmarks.md, issue 14, "the client's and server's start-up"; "Simulator", 2026-12-03 evening).
 */
public final class Preparation {
    /**
     * The libc functions the native UDP endpoint (NativeDatagramPort, UdpSocket, SendPath's GSO probe) calls with the
     * default send options, found with {@code -Xlog:class+init} on a client's and a server's loopback transfer: a
     * client calls all but READ and WRITE (the server's wake-ups). Each is a downcall stub of several ms to make.
     */
    static final Libc.Function[] ENDPOINT_CALLS = {
        Libc.Function.SOCKET, Libc.Function.BIND, Libc.Function.SETSOCKOPT, Libc.Function.GETSOCKOPT,
        Libc.Function.GETSOCKNAME, Libc.Function.CLOSE, Libc.Function.EVENTFD, Libc.Function.READ,
        Libc.Function.WRITE, Libc.Function.PPOLL, Libc.Function.RECVMMSG, Libc.Function.SENDMSG
    };

    private Preparation() {}

    /** Starts {@code work} on a daemon platform thread named {@code name}; a failure of it is dropped. */
    public static Thread inBackground(String name, Runnable work) {
        return Thread.ofPlatform().name(name).daemon().start(() -> {
            try {
                work.run();
            } catch (RuntimeException | LinkageError e) {
                // the connection meets it again and reports it in its own words
            }
        });
    }

    /**
     * The packet protection's one-time set-up: the JDK's HMAC and AES (the key derivation, header protection) and
     * libcrypto's bindings (the AEAD), through a throwaway set of packet keys.
     */
    public static void packetProtection() {
        PacketKeys.fromSecret(CipherSuite.AES_128_GCM_SHA256, new byte[CipherSuite.AES_128_GCM_SHA256.hashLength()]);
    }

    /**
     * A client's or server's set-up before its options are parsed: the native endpoint's libc functions, the packet
     * protection and a TLS handshake's client side up to its ClientHello (the TLS library's classes, the X25519 key
     * generation). For the start of {@code pacelab client} and {@code pacelab server}.
     */
    public static void endpoint() {
        Libc.prepare(ENDPOINT_CALLS);
        packetProtection();
        HandshakeRehearsal.clientHello();
    }

    /**
     * A server's set-up once its TLS configuration is known: a whole handshake in memory with its certificate and key
     * (the signature with its key, the key exchange, the key schedule), while the server starts listening and waits for
     * its first client.
     */
    public static Thread serverHandshakeInBackground(TlsConfig server) {
        return inBackground("pacelab-prepare-tls", () -> HandshakeRehearsal.run(server));
    }

    /** {@link #endpoint()} on a daemon thread. */
    public static Thread endpointInBackground() {
        return inBackground("pacelab-prepare", Preparation::endpoint);
    }
}
