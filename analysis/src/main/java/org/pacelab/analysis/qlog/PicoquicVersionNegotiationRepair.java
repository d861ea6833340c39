package org.pacelab.analysis.qlog;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * picoquic (d199d45be869, {@code loglib/qlog_fns.c}, {@code qlog_fns_tp_version_negotiation}) writes the
 * version_information transport parameter as {@code "version_negotiation": "chosen": …}, without the object's opening
 * brace, whenever the peer sends that parameter (RFC 9368): the file is not JSON from there on, and a reader keeps only
 * what came before (for picoquic's one-document qlogs: nothing). Found on 141 of 242 picoquic server qlogs of the
 * interop matrix. {@link QlogReader#read(Path)} reads such a file again through {@link #repaired}, which puts the brace
 * back; nothing else is changed.
 */
final class PicoquicVersionNegotiationRepair {
    static final String NOTE = "repaired: picoquic writes version_negotiation without its opening brace "
            + "(loglib/qlog_fns.c); the brace was put back";
    private static final byte[] BROKEN = "\"version_negotiation\": \"chosen\": ".getBytes(StandardCharsets.US_ASCII);
    private static final int AT = "\"version_negotiation\": ".length();

    private PicoquicVersionNegotiationRepair() {}

    /** The file's bytes with every broken pattern given its brace; {@link Repairing#repairs()} counts them. */
    static Repairing repaired(Path file) throws IOException {
        return new Repairing(Files.newInputStream(file));
    }

    /** Copies blocks, keeping the last {@code BROKEN.length - 1} bytes back so that a pattern across blocks is found. */
    static final class Repairing extends InputStream {
        private final InputStream in;
        private byte[] pending = new byte[0];
        private int pos;
        private byte[] carry = new byte[0];
        private boolean eof;
        private int repairs;

        Repairing(InputStream in) {
            this.in = new BufferedInputStream(in, 1 << 16);
        }

        /** Braces put back so far. */
        int repairs() {
            return repairs;
        }

        private boolean fill() throws IOException {
            if (eof) {
                return false;
            }
            byte[] block = new byte[1 << 16];
            int n = in.read(block);
            byte[] w = concat(carry, block, Math.max(n, 0));
            int keep = n < 0 ? 0 : Math.min(w.length, BROKEN.length - 1);
            eof = n < 0;
            ByteArrayOutputStream out = new ByteArrayOutputStream(w.length + 16);
            int from = 0;
            // patterns that start before the kept tail are complete in w
            for (int i; (i = indexOf(w, from)) >= 0 && i < w.length - keep; from = i + AT) {
                out.write(w, from, i + AT - from);
                out.write('{');
                repairs++;
            }
            int end = w.length - keep;
            if (from < end) {
                out.write(w, from, end - from);
            }
            carry = java.util.Arrays.copyOfRange(w, Math.max(end, from), w.length);
            pending = out.toByteArray();
            pos = 0;
            return pending.length > 0 || !eof;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            while (pos >= pending.length) {
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(len, pending.length - pos);
            System.arraycopy(pending, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        private static byte[] concat(byte[] a, byte[] b, int n) {
            byte[] w = java.util.Arrays.copyOf(a, a.length + n);
            System.arraycopy(b, 0, w, a.length, n);
            return w;
        }

        private static int indexOf(byte[] w, int from) {
            outer:
            for (int i = from; i <= w.length - BROKEN.length; i++) {
                for (int j = 0; j < BROKEN.length; j++) {
                    if (w[i + j] != BROKEN[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }
}
