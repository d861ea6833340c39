package org.pacelab.analysis.summary;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One run's summary: a value, or null with a reason, for each {@link SummaryField}.
 * Numbers are held as {@link Long} (INTEGER fields) or {@link Double} (NUMBER fields).
 */
public final class Summary {
    private final EnumMap<SummaryField, Object> values = new EnumMap<>(SummaryField.class);
    private final EnumMap<SummaryField, String> reasons = new EnumMap<>(SummaryField.class);

    /** Sets a value; a non-finite double becomes "unavailable" with the given fallback reason. */
    public Summary put(SummaryField field, Object value) {
        Objects.requireNonNull(value, field.jsonName());
        Object v = switch (field.kind()) {
            case INTEGER -> {
                if (!(value instanceof Number n)) {
                    throw new IllegalArgumentException(field.jsonName() + " takes an integer, got " + value);
                }
                yield n.longValue();
            }
            case NUMBER -> {
                if (!(value instanceof Number n)) {
                    throw new IllegalArgumentException(field.jsonName() + " takes a number, got " + value);
                }
                yield n.doubleValue();
            }
            case STRING -> value.toString();
            case BOOLEAN -> {
                if (!(value instanceof Boolean)) {
                    throw new IllegalArgumentException(field.jsonName() + " takes true or false, got " + value);
                }
                yield value;
            }
        };
        if (v instanceof Double d && !Double.isFinite(d)) {
            throw new IllegalArgumentException(field.jsonName() + " must be finite, got " + d);
        }
        values.put(field, v);
        reasons.remove(field);
        return this;
    }

    /** Sets a number, or marks it unavailable with {@code reasonIfNotFinite} when it is NaN or infinite. */
    public Summary putNumber(SummaryField field, double value, String reasonIfNotFinite) {
        if (Double.isFinite(value)) {
            return put(field, value);
        }
        return unavailable(field, reasonIfNotFinite);
    }

    /** Marks a metric as not computable, with one sentence saying why. */
    public Summary unavailable(SummaryField field, String reason) {
        Objects.requireNonNull(reason, "reason");
        values.remove(field);
        reasons.put(field, reason);
        return this;
    }

    /** Clears a non-metric field to null (e.g. capture_truncation when there is none). */
    public Summary clear(SummaryField field) {
        values.remove(field);
        reasons.remove(field);
        return this;
    }

    public boolean has(SummaryField field) {
        return values.containsKey(field);
    }

    public Object get(SummaryField field) {
        return values.get(field);
    }

    /** The value as a double, or NaN when null. */
    public double number(SummaryField field) {
        Object v = values.get(field);
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** The value as a long; throws when absent. */
    public long integer(SummaryField field) {
        Object v = values.get(field);
        if (!(v instanceof Number n)) {
            throw new IllegalStateException(field.jsonName() + " is " + (v == null ? "null" : v));
        }
        return n.longValue();
    }

    public String string(SummaryField field) {
        Object v = values.get(field);
        return v == null ? null : v.toString();
    }

    /** The reason a metric is null, or null when it has a value or no reason. */
    public String reason(SummaryField field) {
        return reasons.get(field);
    }

    public Map<SummaryField, Object> values() {
        return java.util.Collections.unmodifiableMap(values);
    }
}
