package org.pacelab.lab.peer;

import java.nio.file.Path;
import java.util.Map;

/**
 * Everything a server peer is told for one run.
 *
 * @param workDir      the run's directory (logs and the peer's own files go here)
 * @param address      the address to listen on (127.0.0.1 in relay mode, the server namespace's address in netns mode)
 * @param documentRoot files to serve ({@link ClientSetup#paths()} name files in it)
 * @param keyLog       where TLS secrets go (NSS key log format), or null when not collected
 * @param qlogDir      where qlog files go (an existing directory), or null when not collected
 * @param protocol     what server and client speak in this run (one of the server's {@link Peer#protocols()})
 */
public record ServerSetup(Path workDir, String address, int port, Path documentRoot, Path certificate, Path privateKey,
                          Path keyLog, Path qlogDir, Map<String, String> options, Protocol protocol) {}
