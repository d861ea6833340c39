package org.pacelab.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses HOST:PORT or [IPv6]:PORT with a numeric address (no DNS look-ups). */
final class SocketAddressConverter implements ITypeConverter<InetSocketAddress> {
    @Override
    public InetSocketAddress convert(String value) {
        String host;
        String port;
        if (value.startsWith("[")) {
            int end = value.indexOf("]:");
            if (end < 0) throw bad(value);
            host = value.substring(1, end);
            port = value.substring(end + 2);
        } else {
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || value.indexOf(':') != colon) throw bad(value);
            host = value.substring(0, colon);
            port = value.substring(colon + 1);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw bad(value);
        }
        if (p < 0 || p > 65535) throw new TypeConversionException("'" + value + "' has port " + p + "; ports are 0 to 65535");
        if (!host.matches("[0-9.]+") && !host.matches("[0-9a-fA-F:.%a-zA-Z]*:[0-9a-fA-F:.%a-zA-Z]*")) {
            throw new TypeConversionException("'" + value + "' needs a numeric IPv4 or IPv6 address, e.g. 127.0.0.1:4433 "
                    + "or [::1]:4433");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), p);
        } catch (UnknownHostException e) {
            throw new TypeConversionException("'" + value + "' is not a valid IP address and port");
        }
    }

    private static TypeConversionException bad(String v) {
        return new TypeConversionException("'" + v + "' is not HOST:PORT; write e.g. 127.0.0.1:4433 or [::1]:4433");
    }
}
