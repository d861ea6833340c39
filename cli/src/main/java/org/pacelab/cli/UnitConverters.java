package org.pacelab.cli;

import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for tc-style units ({@code 30s}, {@code 20ms}, {@code 32mib}, {@code 100MiB}). */
final class UnitConverters {
    private UnitConverters() {}

    /** A duration in nanoseconds. */
    static final class Duration implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseDuration("duration", value);
            } catch (SpecException e) {
                throw new TypeConversionException("'" + value + "' is not a duration; use " + Units.TIME_CHOICES);
            }
        }
    }

    /** A size in bytes. */
    static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseSize("size", value.toLowerCase(java.util.Locale.ROOT));
            } catch (SpecException e) {
                throw new TypeConversionException("'" + value + "' is not a size; use " + Units.SIZE_CHOICES);
            }
        }
    }
}
