package io.axscheduler.axonmysql.eventstore;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import org.axonframework.common.DateTimeUtils;

/**
 * The event store's timestamp column as Axon writes and reads it ({@link DateTimeUtils}: {@code
 * 2026-12-01T13:37:37.647Z}: UTC, milliseconds, the rest of the second cut off), without {@code java.time}'s formatter: the store
 * formats every event it appends and its readers parse every event they read, several times a job. What this does not
 * recognise (a year outside 0000–9999, another offset, another shape) goes to Axon's own code, so any stored value
 * reads as it did.
 */
final class EventTimestamps {

    private static final long SECONDS_PER_DAY = 86_400;
    private static final long FIRST_SECOND = LocalDate.of(0, 1, 1).toEpochDay() * SECONDS_PER_DAY;
    private static final long LAST_SECOND = (LocalDate.of(9999, 12, 31).toEpochDay() + 1) * SECONDS_PER_DAY - 1;
    /** {@code yyyy-mm-ddThh:mm:ss} */
    private static final int SECONDS_END = 19;

    private EventTimestamps() {}

    /** What {@link DateTimeUtils#formatInstant} makes of {@code instant}. */
    static String format(Instant instant) {
        long second = instant.getEpochSecond();
        if (second < FIRST_SECOND || second > LAST_SECOND) return DateTimeUtils.formatInstant(instant);
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(second, SECONDS_PER_DAY));
        int secondOfDay = (int) Math.floorMod(second, SECONDS_PER_DAY);
        char[] text = new char[SECONDS_END + 1 + 3 + 1];
        put(text, 0, date.getYear(), 4);
        text[4] = '-';
        put(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        put(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        put(text, 11, secondOfDay / 3600, 2);
        text[13] = ':';
        put(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        put(text, 17, secondOfDay % 60, 2);
        text[SECONDS_END] = '.';
        put(text, SECONDS_END + 1, instant.getNano() / 1_000_000, 3);
        text[text.length - 1] = 'Z';
        return new String(text);
    }

    /** What {@link DateTimeUtils#parseInstant} makes of {@code text}. */
    static Instant parse(String text) {
        int length = text.length();
        if (length < SECONDS_END + 3
                || length > SECONDS_END + 11
                || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-'
                || text.charAt(7) != '-'
                || text.charAt(10) != 'T'
                || text.charAt(13) != ':'
                || text.charAt(16) != ':'
                || text.charAt(SECONDS_END) != '.') {
            return DateTimeUtils.parseInstant(text);
        }
        int year = digits(text, 0, 4), month = digits(text, 5, 7), day = digits(text, 8, 10);
        int hour = digits(text, 11, 13), minute = digits(text, 14, 16), second = digits(text, 17, 19);
        int fractionDigits = length - 1 - (SECONDS_END + 1);
        int fraction = digits(text, SECONDS_END + 1, length - 1);
        if (year < 0
                || month < 0
                || day < 0
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59
                || fraction < 0) {
            return DateTimeUtils.parseInstant(text);
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException notADate) {
            return DateTimeUtils.parseInstant(text);
        }
        for (int i = fractionDigits; i < 9; i++) fraction *= 10;
        return Instant.ofEpochSecond(epochDay * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second, fraction);
    }

    private static void put(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--, value /= 10) text[i] = (char) ('0' + value % 10);
    }

    /** The decimal number in {@code text[from, to)}, or -1 when a character there is not an ASCII digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
