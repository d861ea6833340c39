package org.pacelab.quic.h3.qpack;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The QPACK static table, RFC 9204 Appendix A: 99 entries, indices 0 to 98. */
final class StaticTable {
    private static final List<HeaderField> ENTRIES = List.of(
            f(":authority", ""), f(":path", "/"), f("age", "0"), f("content-disposition", ""),
            f("content-length", "0"), f("cookie", ""), f("date", ""), f("etag", ""),
            f("if-modified-since", ""), f("if-none-match", ""), f("last-modified", ""), f("link", ""),
            f("location", ""), f("referer", ""), f("set-cookie", ""), f(":method", "CONNECT"),
            f(":method", "DELETE"), f(":method", "GET"), f(":method", "HEAD"), f(":method", "OPTIONS"),
            f(":method", "POST"), f(":method", "PUT"), f(":scheme", "http"), f(":scheme", "https"),
            f(":status", "103"), f(":status", "200"), f(":status", "304"), f(":status", "404"),
            f(":status", "503"), f("accept", "*/*"), f("accept", "application/dns-message"),
            f("accept-encoding", "gzip, deflate, br"), f("accept-ranges", "bytes"),
            f("access-control-allow-headers", "cache-control"), f("access-control-allow-headers", "content-type"),
            f("access-control-allow-origin", "*"), f("cache-control", "max-age=0"),
            f("cache-control", "max-age=2592000"), f("cache-control", "max-age=604800"),
            f("cache-control", "no-cache"), f("cache-control", "no-store"),
            f("cache-control", "public, max-age=31536000"), f("content-encoding", "br"),
            f("content-encoding", "gzip"), f("content-type", "application/dns-message"),
            f("content-type", "application/javascript"), f("content-type", "application/json"),
            f("content-type", "application/x-www-form-urlencoded"), f("content-type", "image/gif"),
            f("content-type", "image/jpeg"), f("content-type", "image/png"), f("content-type", "text/css"),
            f("content-type", "text/html; charset=utf-8"), f("content-type", "text/plain"),
            f("content-type", "text/plain;charset=utf-8"), f("range", "bytes=0-"),
            f("strict-transport-security", "max-age=31536000"),
            f("strict-transport-security", "max-age=31536000; includesubdomains"),
            f("strict-transport-security", "max-age=31536000; includesubdomains; preload"),
            f("vary", "accept-encoding"), f("vary", "origin"), f("x-content-type-options", "nosniff"),
            f("x-xss-protection", "1; mode=block"), f(":status", "100"), f(":status", "204"),
            f(":status", "206"), f(":status", "302"), f(":status", "400"), f(":status", "403"),
            f(":status", "421"), f(":status", "425"), f(":status", "500"), f("accept-language", ""),
            f("access-control-allow-credentials", "FALSE"), f("access-control-allow-credentials", "TRUE"),
            f("access-control-allow-headers", "*"), f("access-control-allow-methods", "get"),
            f("access-control-allow-methods", "get, post, options"), f("access-control-allow-methods", "options"),
            f("access-control-expose-headers", "content-length"),
            f("access-control-request-headers", "content-type"), f("access-control-request-method", "get"),
            f("access-control-request-method", "post"), f("alt-svc", "clear"), f("authorization", ""),
            f("content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"),
            f("early-data", "1"), f("expect-ct", ""), f("forwarded", ""), f("if-range", ""), f("origin", ""),
            f("purpose", "prefetch"), f("server", ""), f("timing-allow-origin", "*"),
            f("upgrade-insecure-requests", "1"), f("user-agent", ""), f("x-forwarded-for", ""),
            f("x-frame-options", "deny"), f("x-frame-options", "sameorigin"));

    private static final Map<HeaderField, Integer> BY_FIELD = new HashMap<>();
    private static final Map<String, Integer> BY_NAME = new HashMap<>();

    static {
        for (int i = 0; i < ENTRIES.size(); i++) {
            BY_FIELD.putIfAbsent(ENTRIES.get(i), i);
            BY_NAME.putIfAbsent(ENTRIES.get(i).name(), i);
        }
    }

    private StaticTable() {
    }

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }

    static int size() {
        return ENTRIES.size();
    }

    /** The entry at {@code index}, which the caller has checked is below {@link #size()}. */
    static HeaderField get(int index) {
        return ENTRIES.get(index);
    }

    /** The index of an entry with this name and value, or -1. */
    static int indexOf(HeaderField field) {
        return BY_FIELD.getOrDefault(field, -1);
    }

    /** The lowest index of an entry with this name, or -1. */
    static int indexOfName(String name) {
        return BY_NAME.getOrDefault(name, -1);
    }
}
