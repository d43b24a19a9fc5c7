package io.axscheduler.api.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;

/**
 * When a schedule fires: a cron expression evaluated in an IANA zone, a fixed rate, a fixed delay after the previous
 * run ended, or once. Validates itself: a trigger that exists can be evaluated. Only the fields of its type are set.
 * A fixed rate may name its phase, {@code startAt}: it then fires at {@code startAt + k × intervalMs} (k ≥ 0) whenever
 * it was created. The component is last and nullable, so events written before it existed read as "no phase".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Trigger(
        TriggerType type,
        String expression,
        String timezone,
        CronDialect dialect,
        Long intervalMs,
        Long delayMs,
        Instant at,
        Instant startAt) {

    public static final String DEFAULT_TIMEZONE = "UTC";
    public static final int MAX_EXPRESSION_LENGTH = 200;
    /** Keeps fire-time arithmetic in epoch milliseconds far from overflow. */
    static final Instant LATEST_START = Instant.parse("9999-12-31T23:59:59.999Z");

    public static Trigger cron(String expression, String timezone, CronDialect dialect) {
        return new Trigger(TriggerType.CRON, expression, timezone, dialect, null, null, null, null);
    }

    public static Trigger fixedRate(long intervalMs) {
        return fixedRate(intervalMs, null);
    }

    /** Every {@code intervalMs} from {@code startAt} on (the first fire is exactly {@code startAt}); null: from the anchor. */
    public static Trigger fixedRate(long intervalMs, Instant startAt) {
        return new Trigger(TriggerType.FIXED_RATE, null, null, null, intervalMs, null, null, startAt);
    }

    public static Trigger fixedDelay(long delayMs) {
        return new Trigger(TriggerType.FIXED_DELAY, null, null, null, null, delayMs, null, null);
    }

    public static Trigger once(Instant at) {
        return new Trigger(TriggerType.ONCE, null, null, null, null, null, at, null);
    }

    public Trigger {
        if (type == null) {
            throw new InvalidTriggerException("type", "must be one of cron, fixedRate, fixedDelay, once");
        }
        timezone = timezone == null ? DEFAULT_TIMEZONE : timezone;
        try {
            ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw new InvalidTriggerException("timezone", "is not a known IANA time zone: '" + timezone + "'");
        }
        switch (type) {
            case CRON -> {
                if (expression == null || expression.isBlank())
                    throw new InvalidTriggerException("expression", "is required for a cron trigger");
                if (expression.length() > MAX_EXPRESSION_LENGTH)
                    throw new InvalidTriggerException(
                            "expression", "must be at most " + MAX_EXPRESSION_LENGTH + " characters");
                expression = expression.strip();
                dialect = dialect == null ? CronDialect.QUARTZ : dialect;
                CronSupport.parse(expression, dialect);
                requireAbsent(type, "intervalMs", intervalMs, "delayMs", delayMs, "at", at);
            }
            case FIXED_RATE -> {
                requirePositive("intervalMs", intervalMs);
                if (startAt != null && (startAt.isBefore(Instant.EPOCH) || startAt.isAfter(LATEST_START))) {
                    throw new InvalidTriggerException("startAt", "must lie between 1970 and 9999, is " + startAt);
                }
                requireAbsent(type, "expression", expression, "delayMs", delayMs, "at", at);
            }
            case FIXED_DELAY -> {
                requirePositive("delayMs", delayMs);
                requireAbsent(type, "expression", expression, "intervalMs", intervalMs, "at", at);
            }
            case ONCE -> {
                if (at == null) throw new InvalidTriggerException("at", "is required for a once trigger");
                requireAbsent(type, "expression", expression, "intervalMs", intervalMs, "delayMs", delayMs);
            }
        }
        if (type != TriggerType.FIXED_RATE && startAt != null) {
            throw new InvalidTriggerException("startAt", "applies to fixedRate triggers only");
        }
        if (type != TriggerType.CRON && dialect != null) {
            throw new InvalidTriggerException("dialect", "applies to cron triggers only");
        }
    }

    public ZoneId zone() {
        return ZoneId.of(timezone);
    }

    private static void requirePositive(String field, Long value) {
        if (value == null) throw new InvalidTriggerException(field, "is required");
        if (value <= 0)
            throw new InvalidTriggerException(field, value < 0 ? "must not be negative" : "must be positive");
    }

    private static void requireAbsent(TriggerType type, Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                throw new InvalidTriggerException(
                        (String) namesAndValues[i], "does not apply to a " + type.wireName() + " trigger");
            }
        }
    }
}
