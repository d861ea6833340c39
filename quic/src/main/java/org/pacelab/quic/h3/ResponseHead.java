package org.pacelab.quic.h3;

import java.util.List;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.content.Printable;

/** The control data of a response (RFC 9114 §4.3.2): its status and declared content length. */
record ResponseHead(int status, long contentLength) {

    boolean isInterim() {
        return status < 200;
    }

    /**
     * Validates a response header section.
     *
     * @throws MalformedMessageException when it is malformed (RFC 9114 §4.1.2)
     */
    static ResponseHead parse(List<HeaderField> fields) throws MalformedMessageException {
        String status = null;
        boolean regularSeen = false;
        for (HeaderField f : fields) {
            if (!FieldRules.isPseudo(f)) {
                regularSeen = true;
                FieldRules.checkRegular(f);
                continue;
            }
            if (regularSeen) {
                throw new MalformedMessageException(0, "pseudo-header field " + Printable.of(f.name())
                        + " follows a regular field (RFC 9114 §4.3)");
            }
            if (!f.name().equals(":status")) {
                throw new MalformedMessageException(0, "pseudo-header field " + Printable.of(f.name())
                        + " is not defined for responses; only :status is (RFC 9114 §4.3.2)");
            }
            if (status != null) {
                throw new MalformedMessageException(0, ":status appears twice (RFC 9114 §4.3)");
            }
            status = f.value();
        }
        if (status == null) {
            throw new MalformedMessageException(0, "the response has no :status (RFC 9114 §4.3.2)");
        }
        long code = FieldRules.parseDecimal(status);
        if (status.length() != 3 || code < 100 || code > 599) {
            throw new MalformedMessageException(0, ":status '" + Printable.of(status)
                    + "' is not a three-digit status code from 100 to 599 (RFC 9110 §15)");
        }
        return new ResponseHead((int) code, FieldRules.contentLength(fields));
    }
}
