package org.pacelab.cli;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.relay.RelayRoute;
import org.pacelab.net.spec.SpecException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses {@code LISTEN=SERVER[@MODE]}, e.g. {@code 127.0.0.1:4434=127.0.0.1:14434@a}: one more relay route. */
final class RouteConverter implements ITypeConverter<RelayRoute> {
    private final SocketAddressConverter addresses = new SocketAddressConverter();

    @Override
    public RelayRoute convert(String value) {
        int eq = value.indexOf('=');
        if (eq <= 0) {
            throw new TypeConversionException("'" + value + "' is not LISTEN=SERVER[@MODE]; write e.g. "
                    + "127.0.0.1:4434=127.0.0.1:14434@a (MODE: dc, a or b)");
        }
        String rest = value.substring(eq + 1);
        DcFlowMode mode = DcFlowMode.DUAL;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            try {
                mode = DcFlowMode.parse("mode", rest.substring(at + 1));
            } catch (SpecException e) {
                throw new TypeConversionException("'" + value + "': " + e.getMessage());
            }
            rest = rest.substring(0, at);
        }
        return new RelayRoute(addresses.convert(value.substring(0, eq)), addresses.convert(rest), mode);
    }
}
