package org.pacelab.lab.peer;

/** How the runner knows a server is ready: its process has bound a UDP port, or listens on a TCP port. */
public sealed interface Readiness {
    int port();

    record UdpBound(int port) implements Readiness {}

    record TcpListening(int port) implements Readiness {}
}
