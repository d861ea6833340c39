package org.pacelab.cli;

import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for quantities written like tc writes them (see {@link Units}). */
final class UnitConverters {
    private UnitConverters() {}

    /** A duration such as {@code 0.1ms}, converted to nanoseconds. */
    static final class DurationNanos implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseDuration("value", value);
            } catch (SpecException e) {
                throw new TypeConversionException("'" + value + "' is not a duration; use " + Units.TIME_CHOICES);
            }
        }
    }

    /** A size such as {@code 100MiB}, converted to bytes. */
    static final class SizeBytes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseSize("value", value);
            } catch (SpecException e) {
                throw new TypeConversionException("'" + value + "' is not a size; use " + Units.SIZE_CHOICES);
            }
        }
    }
}
