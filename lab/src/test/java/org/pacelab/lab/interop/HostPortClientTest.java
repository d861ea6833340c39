package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.peer.Launch;

/** The client processes of the peers whose clients take the server's host and port (gtlsclient, picoquicdemo). */
class HostPortClientTest {
    private static final Path DIR = Path.of("/tmp/case");

    private static EndpointSetup client(String testname, List<String> urls, Path keyLog) {
        return new EndpointSetup(DIR, testname, "hq-interop", null, null, null, urls, null, DIR.resolve("downloads"), null,
                keyLog, null, 10_000_000_000L);
    }

    @Test
    void gtlsclientResumesInASecondProcessWithTheHostUnbracketed() {
        List<String> urls = List.of("https://[::1]:4433/a", "https://[::1]:4433/b", "https://[::1]:4433/c");
        List<Launch> l = new Ngtcp2Endpoint().client(client("resumption", urls, DIR.resolve("keys.log")), null);
        assertEquals(2, l.size());
        List<String> first = l.get(0).command();
        assertEquals(List.of("::1", "4433", "https://[::1]:4433/a"), first.subList(first.size() - 3, first.size()));
        List<String> second = l.get(1).command();
        assertEquals(List.of("::1", "4433", "https://[::1]:4433/b", "https://[::1]:4433/c"),
                second.subList(second.size() - 4, second.size()));
        assertEquals(Map.of("SSLKEYLOGFILE", DIR.resolve("keys.log").toString()), l.get(1).environment());
    }

    /** As PicoquicEndpoint runs picoquicdemo (whose path needs a built picoquic, so the program is named here). */
    @Test
    void picoquicdemoTakesOneScenarioPerProcessForMulticonnect() {
        List<String> urls = List.of("https://127.0.0.1:4433/a", "https://127.0.0.1:4433/b");
        List<Launch> l = HostPortClient.processes(client("multiconnect", urls, null), List.of("picoquicdemo"),
                u -> List.of(PicoquicEndpoint.scenario(u)));
        assertEquals(2, l.size());
        for (int i = 0; i < 2; i++) {
            List<String> cmd = l.get(i).command();
            assertEquals(List.of("127.0.0.1", "4433", PicoquicEndpoint.scenario(List.of(urls.get(i)))),
                    cmd.subList(cmd.size() - 3, cmd.size()));
            assertEquals(Map.of(), l.get(i).environment());
        }
    }
}
