package org.pacelab.lab.interop;

/**
 * The result of one test case for one server and client.
 *
 * @param testCase the case's name
 * @param server   the server's name
 * @param client   the client's name
 * @param result   outcome and reason
 * @param seconds  wall time of the run (0 when it was not run)
 * @param alpn     the application protocol used, or null when not run
 * @param directory the run's directory relative to the matrix directory, or null when not run
 * @param provenance the commit, invocation, times, load and seed it was decided or run with
 */
public record CellResult(String testCase, String server, String client, CheckResult result, double seconds, String alpn,
                         String directory, CellProvenance provenance) {
    /** The cell's key in the matrix: case, server and client. */
    String key() {
        return testCase + " " + server + " " + client;
    }
}
