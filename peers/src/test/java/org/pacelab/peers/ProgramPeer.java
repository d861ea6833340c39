package org.pacelab.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.peers.build.InstalledBuild;

/**
 * A peer run through pacelab's own server and client programs on its public API (aioquic, quic-go): both take the
 * same options (server: {@code --listen --root --cert --key --alpn}; client: {@code --insecure --output --json --alpn
 * URL...}, saving each body under the URL's last path segment), so their interop tests share this one helper.
 *
 * @param name   the peer's name in messages and log files
 * @param build  the installed build holding both programs
 * @param server the server program, relative to the build
 * @param client the client program, relative to the build
 */
record ProgramPeer(String name, InstalledBuild build, String server, String client) {

    /** The server command speaking {@code alpn}, with the program's {@code extra} options. */
    ThirdPartyInterop.ServerCommand serverCommand(String alpn, String... extra) {
        return (port, www, cert, key) -> {
            List<String> cmd = new ArrayList<>(List.of(build.file(server).toString(), "--listen", "127.0.0.1:" + port, "--root",
                    www.toString(), "--cert", cert.toString(), "--key", key.toString(), "--alpn", alpn));
            cmd.addAll(List.of(extra));
            return cmd;
        };
    }

    /** The client command speaking {@code alpn}. */
    ThirdPartyInterop.ClientCommand clientCommand(String alpn) {
        return (port, urls, out) -> {
            List<String> cmd = new ArrayList<>(List.of(build.file(client).toString(), "--insecure", "--output", out.toString(),
                    "--json", out.resolveSibling("client.json").toString(), "--alpn", alpn));
            cmd.addAll(urls);
            return cmd;
        };
    }

    /** Where the client saved the body of {@code target}: under the URL's last path segment. */
    static Path saved(Path out, String target) {
        return out.resolve(target.substring(target.lastIndexOf('/') + 1));
    }

    /** pacelab's client downloads {@code files} from this peer's server over {@code alpn}. */
    void pacelabDownloads(Path dir, String alpn, Map<String, Integer> files, String... serverOptions) throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, name, serverCommand(alpn, serverOptions), Map.of(), alpn, files);
    }

    /** This peer's client downloads {@code targets} from pacelab's server over {@code alpn}. */
    void downloadsFromPacelab(Path dir, String alpn, List<String> targets) throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, name, clientCommand(alpn), Map.of(), ProgramPeer::saved, targets);
    }
}
