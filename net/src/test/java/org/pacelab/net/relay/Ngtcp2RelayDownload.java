package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.pacelab.net.Preconditions;
import org.pacelab.net.Processes;

/**
 * The download the relay interop tests run with the Debian ngtcp2 peers: a random file served by {@code gtlsserver}
 * (with a self-signed certificate) is fetched over HTTP/3 by {@code gtlsclient} through a {@link UdpRelay} running on
 * its own thread; the relay is stopped and closed on every path out, and the file must arrive intact.
 */
final class Ngtcp2RelayDownload {
    private Ngtcp2RelayDownload() {}

    /**
     * @param fileBytes           the size of the random file
     * @param seed                the seed of its bytes
     * @param relayConfig         the relay's configuration, given the server's UDP port on 127.0.0.1
     * @param clientTimeoutSeconds bound of the client's run
     * @param clientEnv           extra environment of the client (e.g. SSLKEYLOGFILE), or null
     * @return the relay, stopped and closed (its counters stay readable)
     */
    static UdpRelay run(Path dir, int fileBytes, long seed, IntFunction<RelayConfig> relayConfig, long clientTimeoutSeconds,
            Map<String, String> clientEnv) throws Exception {
        Path server = Preconditions.requireTool("gtlsserver", "ngtcp2-server");
        Path client = Preconditions.requireTool("gtlsclient", "ngtcp2-client");
        Path openssl = Preconditions.requireTool("openssl", "openssl");
        Path www = Files.createDirectories(dir.resolve("www"));
        Path dl = Files.createDirectories(dir.resolve("dl"));
        byte[] content = new byte[fileBytes];
        new Random(seed).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path key = dir.resolve("key.pem"), cert = dir.resolve("cert.pem");
        assertEquals(0, Processes.run(60, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").exitCode());
        int serverPort = freeUdpPort();
        try (Processes procs = new Processes()) {
            procs.start(dir.resolve("server.log"), server.toString(), "-q", "-d", www.toString(), "127.0.0.1",
                    String.valueOf(serverPort), key.toString(), cert.toString());
            UdpRelay relay = new UdpRelay(relayConfig.apply(serverPort));
            Thread loop = Thread.ofPlatform().start(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            try {
                Thread.sleep(300); // let the server bind
                int port = relay.listenAddress().getPort();
                Processes.Result r = Processes.run(clientTimeoutSeconds, clientEnv, client.toString(), "-q",
                        "--exit-on-all-streams-close", "--download", dl.toString(), "--max-data=1G",
                        "--max-stream-data-bidi-local=1G", "127.0.0.1", String.valueOf(port),
                        "https://127.0.0.1:" + port + "/file.bin");
                assertEquals(0, r.exitCode(), r.output());
            } finally {
                relay.stop();
                loop.join(10_000);
                relay.close();
            }
            assertArrayEquals(content, Files.readAllBytes(dl.resolve("file.bin")), "download differs");
            return relay;
        }
    }

    static int freeUdpPort() throws Exception {
        try (DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        }
    }
}
