package org.pacelab.quic.content;

/**
 * What a server did with one request, for the runtime's log.
 *
 * @param method    the request method ("GET" for hq-interop)
 * @param target    the request target as received
 * @param status    the HTTP status answered (for hq-interop: 200, or the status the refusal maps to)
 * @param bodyBytes the body length sent (0 for HEAD)
 * @param error     null for a successful response handed completely to the transport; else one sentence:
 *                  why the request was refused (with a 4xx/5xx status) or why the response was cut off
 */
public record ServedRequest(long streamId, String method, String target, int status, long bodyBytes, String error) {
}
