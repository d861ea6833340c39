package org.pacelab.cli;

import java.nio.file.Path;
import java.util.Locale;

import io.netty.handler.codec.quic.QuicCongestionControlAlgorithm;

import org.pacelab.peers.quiche.QuicheOptions;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The quiche peer's transport options (both roles). */
final class QuicheTransportOptions {
    @Option(names = "--cc", paramLabel = "ALG", converter = CongestionConverter.class,
            description = "quiche's congestion controller: reno (alias newreno), cubic, bbr (default: cubic).")
    QuicCongestionControlAlgorithm cc = QuicCongestionControlAlgorithm.CUBIC;

    @Option(names = "--hystart", paramLabel = "on|off", arity = "1", converter = OnOffConverter.class,
            description = "HyStart++ in slow start (default: on).")
    boolean hystart = true;

    @Option(names = "--gso", paramLabel = "SEGMENTS",
            description = "UDP GSO with up to this many packets per send (epoll transport; 0 = off, default: 0).")
    int gso;

    @Option(names = "--max-udp-payload", paramLabel = "BYTES", description = "Largest UDP payload sent (default: ${DEFAULT-VALUE}).")
    int maxUdpPayload = 1452;

    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Idle timeout (default: 30s).")
    long idleTimeout = 30_000_000_000L;

    @Option(names = "--qlog-dir", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "quiche writes one qlog per connection here (default: $QLOGDIR).")
    Path qlogDir;

    @Option(names = "--keylog", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Append TLS secrets to this NSS key log (default: $SSLKEYLOGFILE).")
    Path keylog;

    /**
     * quiche's options; the key log and the qlog directory from the environment when not given, checked as the options
     * are (PathChecks) before any connection.
     *
     * @throws IllegalArgumentException one sentence naming the variable when SSLKEYLOGFILE or QLOGDIR cannot be written
     */
    QuicheOptions options() {
        QuicheOptions d = QuicheOptions.defaults();
        return new QuicheOptions(cc, hystart, gso, qlogDir != null ? qlogDir : PathChecks.outputDirectoryFromEnvironment("QLOGDIR"),
                keylog != null ? keylog : PathChecks.outputFileFromEnvironment("SSLKEYLOGFILE"), maxUdpPayload,
                Math.max(1, idleTimeout / 1_000_000), d.connectionWindow(), d.streamWindow(), d.maxStreams());
    }

    static String describe(QuicheOptions o) {
        return "quiche, cc " + o.congestion().name().toLowerCase(Locale.ROOT) + ", hystart " + (o.hystart() ? "on" : "off")
                + ", GSO " + (o.gsoSegments() > 1 ? o.gsoSegments() + " segments" : "off") + ", unpaced";
    }

    static final class CongestionConverter implements ITypeConverter<QuicCongestionControlAlgorithm> {
        @Override
        public QuicCongestionControlAlgorithm convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "reno", "newreno" -> QuicCongestionControlAlgorithm.RENO;
                case "cubic" -> QuicCongestionControlAlgorithm.CUBIC;
                case "bbr" -> QuicCongestionControlAlgorithm.BBR;
                default -> throw new TypeConversionException("'" + value + "' is not one of quiche's congestion controllers; valid: reno, cubic, bbr");
            };
        }
    }

    static final class OnOffConverter implements ITypeConverter<Boolean> {
        @Override
        public Boolean convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "on", "true", "yes" -> true;
                case "off", "false", "no" -> false;
                default -> throw new TypeConversionException("'" + value + "' is not on or off");
            };
        }
    }
}
