package org.pacelab.lab.run;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * A stand-in for the {@code pacelab} command in a runner test, in its own JVM: {@code emulate} binds its relay
 * port, prints its "relaying" line and, on the first datagram a client sends through it, says on stderr that the disk
 * is full and exits 1 (as the real emulator did when its tap filled the disk); {@code server} binds its port and waits; {@code client} sends one
 * datagram to the relay and waits for an answer that never comes.
 */
public final class FakePacelab {
    private FakePacelab() {}

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "emulate" -> {
                try (DatagramSocket s = bound(after(args, "--listen"))) {
                    // the runner takes the relay as ready when this line is out and the port bound
                    System.out.println("relaying " + after(args, "--listen") + " -> " + after(args, "--to"));
                    System.out.flush();
                    s.receive(new DatagramPacket(new byte[2048], 2048));
                }
                System.err.println("pacelab emulate: No space left on device");
                System.exit(1);
            }
            case "server" -> {
                try (DatagramSocket s = bound(after(args, "--listen"))) {
                    while (true) {
                        s.receive(new DatagramPacket(new byte[2048], 2048));
                    }
                }
            }
            case "client" -> {
                URI url = URI.create(args[args.length - 1]);
                try (DatagramSocket s = new DatagramSocket()) {
                    s.send(new DatagramPacket(new byte[1200], 1200, new InetSocketAddress(url.getHost(), url.getPort())));
                    s.receive(new DatagramPacket(new byte[2048], 2048));
                }
            }
            default -> {
                System.err.println("fake pacelab: no command " + args[0]);
                System.exit(2);
            }
        }
    }

    private static DatagramSocket bound(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        return new DatagramSocket(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
    }

    private static String after(String[] args, String option) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(option)) {
                return args[i + 1];
            }
        }
        throw new IllegalArgumentException("no " + option);
    }
}
