package org.pacelab.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Map;

/**
 * Text for the user's terminal. In a locale whose character set cannot show what pacelab prints (LANG=C, common in
 * cron, CI and non-root shells, is ASCII), the JDK would print {@code ?} for {@code ±} and {@code µ}; here every such
 * character becomes what the terminal can show ({@code +/-}, {@code u}, ...). Files are not affected: the JDK writes
 * them in UTF-8 whatever the locale (JEP 400), and pacelab names UTF-8 where it opens a file.
 */
final class TerminalText {
    private TerminalText() {}

    private static final Map<Character, String> ASCII = Map.ofEntries(
            Map.entry('±', "+/-"), Map.entry('µ', "u"), Map.entry('μ', "u"), Map.entry('×', "x"),
            Map.entry('–', "-"), Map.entry('—', "--"), Map.entry('−', "-"), Map.entry('≥', ">="), Map.entry('≤', "<="),
            Map.entry('≈', "~"), Map.entry('→', "->"), Map.entry('←', "<-"), Map.entry('…', "..."), Map.entry('·', "."),
            Map.entry('°', " deg"), Map.entry('²', "^2"), Map.entry('³', "^3"), Map.entry('‰', " per mille"),
            Map.entry('\u00a0', " "), Map.entry('\u202f', " "), Map.entry('‘', "'"), Map.entry('’', "'"),
            Map.entry('“', "\""), Map.entry('”', "\""), Map.entry('✓', "ok"), Map.entry('✗', "x"));

    /** The character set of standard output (the terminal's, or the locale's when redirected). */
    static Charset consoleCharset() {
        String name = System.getProperty("stdout.encoding", System.getProperty("native.encoding", "UTF-8"));
        try {
            return Charset.forName(name);
        } catch (RuntimeException e) {
            return StandardCharsets.US_ASCII;
        }
    }

    /** {@code text} with every character {@code charset} cannot encode replaced by what it can. */
    static String fold(String text, CharsetEncoder encoder) {
        if (encoder.canEncode(text)) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            String c = new String(Character.toChars(cp));
            i += Character.charCount(cp);
            if (encoder.canEncode(c)) {
                sb.append(c);
                continue;
            }
            String replacement = cp <= 0xffff ? ASCII.get((char) cp) : null;
            if (replacement == null) {
                // accents dropped (é -> e); anything else the terminal cannot show becomes '?'
                String stripped = Normalizer.normalize(c, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
                replacement = !stripped.isEmpty() && encoder.canEncode(stripped) ? stripped : "?";
            }
            sb.append(replacement);
        }
        return sb.toString();
    }

    /** Whether {@code charset} can show all of Unicode (then nothing needs folding). */
    static boolean isUnicode(Charset charset) {
        return charset.name().toUpperCase(java.util.Locale.ROOT).startsWith("UTF");
    }

    /** Replaces System.out and System.err with streams that fold text for the console's character set. */
    static void installForConsole() {
        Charset cs = consoleCharset();
        if (isUnicode(cs)) {
            return;
        }
        System.setOut(new Folding(new FileOutputStream(FileDescriptor.out), cs));
        System.setErr(new Folding(new FileOutputStream(FileDescriptor.err), cs));
    }

    /** A writer onto {@code stream}'s text methods (so picocli's output is folded like System.out's). */
    static PrintWriter writerOnto(PrintStream stream) {
        return new PrintWriter(new Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) {
                stream.print(new String(buffer, offset, length));
            }

            @Override
            public void flush() {
                stream.flush();
            }

            @Override
            public void close() {
                stream.flush();
            }
        }, true);
    }

    /** A print stream that folds text for its character set; bytes written as bytes pass unchanged. */
    static final class Folding extends PrintStream {
        private final CharsetEncoder encoder;

        Folding(java.io.OutputStream out, Charset charset) {
            super(out, true, charset);
            this.encoder = charset.newEncoder();
        }

        @Override
        public void print(String s) {
            super.print(s == null ? null : fold(s, encoder));
        }

        @Override
        public void print(char c) {
            print(String.valueOf(c));
        }

        @Override
        public void print(char[] s) {
            print(new String(s));
        }

        @Override
        public void print(Object o) {
            print(String.valueOf(o));
        }

        @Override
        public void println(String s) {
            synchronized (this) {
                print(s);
                println();
            }
        }

        @Override
        public void println(Object o) {
            println(String.valueOf(o));
        }

        @Override
        public void println(char[] s) {
            println(new String(s));
        }

        @Override
        public PrintStream append(CharSequence csq) {
            print(String.valueOf(csq));
            return this;
        }
    }
}
