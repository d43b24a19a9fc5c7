package io.axscheduler.api;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * The ISO-8601 UTC form of instants as the node writes them ({@code yyyy-MM-ddTHH:mm:ss.SSSZ}: milliseconds, always
 * three digits) and reads them, by arithmetic instead of a {@link DateTimeFormatter}'s general machinery, whose
 * fraction printer goes through {@code BigDecimal}: each event carries several instants and a timestamp column, each
 * schedule request several more (docs/benchmark.md has what that cost).
 *
 * <p>Only the plain case goes the short way: years 1 to 9999 when writing, and when reading exactly
 * {@code yyyy-MM-ddTHH:mm:ss} with an optional fraction of one to nine digits and {@code Z}, every field in its range.
 * Anything else goes to the JDK ({@link Instant#parse}, which also answers the error), so both give the same answer
 * for every input.
 */
public final class IsoInstants {

    private static final DateTimeFormatter ANY_YEAR =
            new DateTimeFormatterBuilder().appendInstant(3).toFormatter();
    private static final long SECONDS_OF_YEAR_1 = -62135596800L; // 0001-01-01T00:00:00Z
    private static final long SECONDS_AFTER_9999 = 253402300800L; // 10000-01-01T00:00:00Z

    private IsoInstants() {}

    /** {@code at} as {@code yyyy-MM-ddTHH:mm:ss.SSSZ} (nanoseconds below the millisecond dropped). */
    public static String millis(Instant at) {
        long seconds = at.getEpochSecond();
        if (seconds < SECONDS_OF_YEAR_1 || seconds >= SECONDS_AFTER_9999) return ANY_YEAR.format(at);
        long day = Math.floorDiv(seconds, 86_400L);
        int second = (int) Math.floorMod(seconds, 86_400L);
        // days to civil date (H. Hinnant's algorithm), proleptic Gregorian as java.time
        long z = day + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        int dayOfMonth = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        char[] c = new char[24];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, month, 2);
        c[7] = '-';
        digits(c, 8, dayOfMonth, 2);
        c[10] = 'T';
        digits(c, 11, second / 3600, 2);
        c[13] = ':';
        digits(c, 14, second / 60 % 60, 2);
        c[16] = ':';
        digits(c, 17, second % 60, 2);
        c[19] = '.';
        digits(c, 20, at.getNano() / 1_000_000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    /** {@code text} as {@link Instant#parse} reads it, which it also throws. */
    public static Instant parse(CharSequence text) {
        Instant plain = plain(text);
        return plain != null ? plain : Instant.parse(text);
    }

    /** The instant of a plain {@code yyyy-MM-ddTHH:mm:ss[.f…]Z}, or null for anything else. */
    private static Instant plain(CharSequence s) {
        int n = s.length();
        if (n < 20 || n > 30 || s.charAt(n - 1) != 'Z') return null;
        if (s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':') return null;
        int year = number(s, 0, 4), month = number(s, 5, 2), day = number(s, 8, 2);
        int hour = number(s, 11, 2), minute = number(s, 14, 2), second = number(s, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month)) return null;
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
        int nanos = 0;
        if (n > 20) {
            int digits = n - 21;
            if (s.charAt(19) != '.' || digits < 1) return null;
            nanos = number(s, 20, digits);
            if (nanos < 0) return null;
            for (int i = digits; i < 9; i++) nanos *= 10;
        }
        long days = epochDay(year, month, day);
        return Instant.ofEpochSecond(days * 86_400L + hour * 3600L + minute * 60L + second, nanos);
    }

    /** The decimal number of {@code count} digits at {@code from}, or -1 if any is not a digit. */
    private static int number(CharSequence s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int d = s.charAt(i) - '0';
            if (d < 0 || d > 9) return -1;
            value = value * 10 + d;
        }
        return value;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 to the civil date (H. Hinnant's algorithm). */
    private static long epochDay(int year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    private static void digits(char[] into, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
