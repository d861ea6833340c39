package org.pacelab.quic.h3;

/** HTTP/3 setting identifiers, RFC 9114 §7.2.4.1 and §11.2.2, RFC 9204 §5. */
public final class SettingId {
    public static final long QPACK_MAX_TABLE_CAPACITY = 0x01;
    public static final long MAX_FIELD_SECTION_SIZE = 0x06;
    public static final long QPACK_BLOCKED_STREAMS = 0x07;

    private SettingId() {
    }

    /**
     * Identifiers reserved because HTTP/2 used them without an HTTP/3 equivalent: 0x00, 0x02 to 0x05;
     * receiving one is a connection error of type H3_SETTINGS_ERROR (§7.2.4.1).
     */
    public static boolean isHttp2Only(long id) {
        return id == 0x00 || (id >= 0x02 && id <= 0x05);
    }
}
