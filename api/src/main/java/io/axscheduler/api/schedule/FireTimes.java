package io.axscheduler.api.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.time.ExecutionTime;
import io.axscheduler.api.IsoInstants;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fire times of a trigger, pure: the same trigger, anchor and instant always give the same answer, so tests set
 * the time and every node agrees.
 *
 * <p>Cron expressions are matched against the wall clock of the trigger's zone. Across daylight-saving changes a
 * local time that names one moment of the day fires once: a time in the skipped hour (02:30 on a spring-forward day)
 * fires at the same wall-clock distance after the gap (03:30), and a time in the repeated hour fires at its first
 * occurrence only. An expression whose hour field matches every hour ({@code *}, {@code 0/1}, {@code 0-23}) runs all day
 * by the real clock instead: it does not
 * fire in the skipped hour (those times do not exist) and fires in both copies of the repeated hour.
 *
 * <p>A fixed rate fires at {@code anchor + k × interval} (k ≥ 1), or, when it names a {@code startAt}, at
 * {@code startAt + k × interval} (k ≥ 0, so the first fire is {@code startAt} itself); a fixed delay fires {@code delay} after the anchor
 * the first time and afterwards {@code delay} after the previous run ended, which only the caller knows.
 */
public final class FireTimes {

    /** Bounds the searches below; a cron expression that matches nothing (Feb 30) ends there. */
    static final int MAX_STEPS = 1_000;

    static final int SAMPLE_FOR_INTERVAL = 200;
    public static final int MAX_PREVIEW = 100;

    private FireTimes() {}

    /** The first fire time strictly after {@code after}, or empty when the trigger fires no more (or, for a fixed delay, waits for a run to end). */
    public static Optional<Instant> next(Trigger trigger, Instant anchor, Instant after) {
        return switch (trigger.type()) {
            case CRON -> nextCron(trigger, after);
            case FIXED_RATE ->
                Optional.of(
                        trigger.startAt() == null
                                ? nextRate(anchor, trigger.intervalMs(), after)
                                : nextPhased(trigger.startAt(), trigger.intervalMs(), after));
            case FIXED_DELAY -> {
                Instant first = anchor.plusMillis(trigger.delayMs());
                yield first.isAfter(after) ? Optional.of(first) : Optional.empty();
            }
            case ONCE -> trigger.at().isAfter(after) ? Optional.of(trigger.at()) : Optional.empty();
        };
    }

    /**
     * Refuses a cron expression that never fires, or whose fire times cannot all be computed, as the expression's
     * error: besides its next fire, the first fire from the start of each of the next {@value #MONTHS_CHECKED} months
     * (in the trigger's zone: four years, so every month of a leap and of a common year) is computed, so a day that
     * only some months lack ({@code 31W} in February, {@code 29W} in a February of a common year) is found now rather
     * than when the schedule reaches it, however often the expression fires. Validate and create both ask here, so
     * they agree.
     */
    static final int MONTHS_CHECKED = 49;

    public static void requireFires(Trigger trigger, Instant now) {
        if (trigger.type() != TriggerType.CRON) return;
        boolean fires;
        try {
            fires = nextCron(trigger, now).isPresent();
            ZoneId zone = trigger.zone();
            LocalDateTime month = LocalDateTime.ofInstant(now, zone)
                    .toLocalDate()
                    .withDayOfMonth(1)
                    .atStartOfDay();
            for (int m = 1; m <= MONTHS_CHECKED; m++) {
                nextCron(trigger, month.plusMonths(m).atZone(zone).toInstant().minusSeconds(1));
            }
        } catch (RuntimeException e) {
            throw new InvalidTriggerException(
                    "expression",
                    "cannot be evaluated for every month (" + e.getMessage() + "); a W day past the 28th or a # past"
                            + " the 4th does not exist in every month");
        }
        if (!fires)
            throw new InvalidTriggerException(
                    "expression",
                    "never fires after " + IsoInstants.millis(now)
                            + CronSupport.whyNever(trigger.expression(), trigger.dialect()));
    }

    /** The finest step of a dialect's expressions (Quartz's seconds, Unix's minutes): none fires more often. */
    public static long cronResolutionMs(CronDialect dialect) {
        return dialect == CronDialect.QUARTZ ? 1_000 : 60_000;
    }

    /**
     * The next {@code count} fire times after {@code after}. For a fixed delay these are estimates that assume
     * every run takes no time, since the real ones depend on when runs end.
     */
    public static List<Instant> preview(Trigger trigger, Instant anchor, Instant after, int count) {
        int n = Math.min(count, MAX_PREVIEW);
        List<Instant> times = new ArrayList<>(n);
        if (trigger.type() == TriggerType.FIXED_DELAY) {
            Instant t = nextRate(anchor, trigger.delayMs(), after);
            for (int i = 0; i < n; i++, t = t.plusMillis(trigger.delayMs())) times.add(t);
            return times;
        }
        Instant cursor = after;
        while (times.size() < n) {
            Optional<Instant> next = next(trigger, anchor, cursor);
            if (next.isEmpty()) break;
            times.add(next.get());
            cursor = next.get();
        }
        return times;
    }

    /**
     * The shortest gap between two fires, sampled over the next fires from {@code from}; empty for a trigger that
     * fires at most once. The floor on schedules is checked against it.
     */
    public static Optional<Duration> shortestInterval(Trigger trigger, Instant anchor, Instant from) {
        return switch (trigger.type()) {
            case FIXED_RATE -> Optional.of(Duration.ofMillis(trigger.intervalMs()));
            case FIXED_DELAY -> Optional.of(Duration.ofMillis(trigger.delayMs()));
            case ONCE -> Optional.empty();
            case CRON -> {
                List<Instant> sample = preview(trigger, anchor, from, SAMPLE_FOR_INTERVAL);
                Duration shortest = null;
                for (int i = 1; i < sample.size(); i++) {
                    Duration gap = Duration.between(sample.get(i - 1), sample.get(i));
                    if (shortest == null || gap.compareTo(shortest) < 0) shortest = gap;
                }
                yield Optional.ofNullable(shortest);
            }
        };
    }

    /**
     * How many times the trigger fires in a day (a fixed delay: at most, if runs took no time). A cron expression is
     * counted over the 24 hours from its first fire at or after {@code from}, so a day it does not fire at all (a
     * weekday schedule looked at on a Sunday, a weekly one between its days) does not count as its day.
     */
    public static long firesPerDay(Trigger trigger, Instant anchor, Instant from) {
        Instant end = from.plus(Duration.ofDays(1));
        return switch (trigger.type()) {
            case FIXED_RATE -> Duration.ofDays(1).toMillis() / trigger.intervalMs();
            case FIXED_DELAY -> Duration.ofDays(1).toMillis() / trigger.delayMs();
            case ONCE -> trigger.at().isAfter(from) && !trigger.at().isAfter(end) ? 1 : 0;
            case CRON -> countCron(trigger, from);
        };
    }

    /** A human description: cron-utils' for cron expressions, ours for the others. */
    public static String describe(Trigger trigger) {
        return switch (trigger.type()) {
            case CRON ->
                inZone(CronSupport.describe(CronSupport.parse(trigger.expression(), trigger.dialect())), trigger);
            case FIXED_RATE ->
                "every " + humanDuration(trigger.intervalMs())
                        + (trigger.startAt() == null ? "" : " from " + trigger.startAt());
            case FIXED_DELAY -> humanDuration(trigger.delayMs()) + " after the previous run ended";
            case ONCE -> "once at " + trigger.at();
        };
    }

    /**
     * A cron description as one reads it: cron-utils says nothing of the days when the time is every day's ("at
     * 02:30", "at 12:00 in May"); and hours, days and months are the zone's wall clock, so a description of an expression that names any
     * of them names the zone unless it is UTC ("every 5 minutes" is the same in every zone).
     */
    private static String inZone(String description, Trigger cron) {
        String d = everyDay(cron) ? DAILY.matcher(description).replaceFirst("$1 every day$2") : description;
        String zone = cron.timezone();
        boolean utc = zone == null || zone.equals("UTC") || zone.equals("Z") || zone.equals("Etc/UTC");
        return !utc && namesTheWallClock(cron) ? d + " (" + zone + " time)" : d;
    }

    /** Whether neither day field restricts the expression: each day of its months and years is a day it runs. */
    private static boolean everyDay(Trigger cron) {
        String[] fields = cron.expression().trim().split("\\s+");
        boolean unix = cron.dialect() == CronDialect.UNIX;
        int dom = unix ? 2 : 3, dow = unix ? 4 : 5;
        if (fields.length <= dow) return false;
        return (fields[dom].equals("*") || fields[dom].equals("?"))
                && (fields[dow].equals("*") || fields[dow].equals("?"));
    }

    /** Whether the hour, a day or the month field restricts the expression (seconds and minutes do not). */
    private static boolean namesTheWallClock(Trigger cron) {
        String[] fields = cron.expression().trim().split("\\s+");
        int hour = cron.dialect() == CronDialect.UNIX ? 1 : 2;
        for (int i = hour; i < Math.min(fields.length, hour + 4); i++)
            if (!fields[i].equals("*") && !fields[i].equals("?")) return true;
        return false;
    }

    /**
     * A time of day, alone or with the months or years it is limited to ("at 12:00 in May"); used only where neither
     * day field is restricted ({@link #everyDay}), so what follows the time names no day.
     */
    private static final java.util.regex.Pattern DAILY =
            java.util.regex.Pattern.compile("^(at \\d{2}:\\d{2}(?::\\d{2})?)((?: in .*)?)$");

    public static String humanDuration(long ms) {
        if (ms % 3_600_000 == 0) return plural(ms / 3_600_000, "hour");
        if (ms % 60_000 == 0) return plural(ms / 60_000, "minute");
        if (ms % 1_000 == 0) return plural(ms / 1_000, "second");
        return ms + " ms";
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }

    private static Instant nextRate(Instant anchor, long intervalMs, Instant after) {
        long elapsed = after.toEpochMilli() - anchor.toEpochMilli();
        long k = elapsed < 0 ? 1 : Math.floorDiv(elapsed, intervalMs) + 1;
        return anchor.plusMillis(k * intervalMs);
    }

    private static Instant nextPhased(Instant startAt, long intervalMs, Instant after) {
        long elapsed = after.toEpochMilli() - startAt.toEpochMilli();
        long k = elapsed < 0 ? 0 : Math.floorDiv(elapsed, intervalMs) + 1;
        return startAt.plusMillis(k * intervalMs);
    }

    // Cron fields combine as a product, so the seconds field matches the same seconds in every matching minute:
    // walk the day by minutes (at most 1,440 steps) and multiply, instead of stepping up to 86,400 times. The day
    // counted is the 24 hours from the start of the minute of `from`.
    private static long countCron(Trigger trigger, Instant from) {
        Optional<Instant> first = nextCron(trigger, from.minusMillis(1));
        if (first.isEmpty()) return 0;
        Instant start = first.get().truncatedTo(ChronoUnit.MINUTES);
        Instant end = start.plus(Duration.ofDays(1));
        Trigger byMinute = trigger;
        long perMinute = 1;
        if (trigger.dialect() == CronDialect.QUARTZ) {
            String[] fields = trigger.expression().split("\\s+", 2);
            byMinute = Trigger.cron("0 " + fields[1], trigger.timezone(), CronDialect.QUARTZ);
            perMinute = countSecondsOfMinute(fields[0]);
        }
        long minutes = 0;
        Instant cursor = start.minusMillis(1);
        while (true) {
            Optional<Instant> next = nextCron(byMinute, cursor);
            if (next.isEmpty() || !next.get().isBefore(end)) return minutes * perMinute;
            minutes++;
            cursor = next.get();
        }
    }

    private static long countSecondsOfMinute(String secondsField) {
        ExecutionTime seconds = CronSupport.execution(secondsField + " * * * * ?", CronDialect.QUARTZ);
        LocalDateTime minute = LocalDateTime.of(2000, 1, 1, 0, 0);
        long count = 0;
        Optional<LocalDateTime> next = nextLocal(seconds, minute.minusSeconds(1));
        while (next.isPresent() && next.get().isBefore(minute.plusMinutes(1))) {
            count++;
            next = nextLocal(seconds, next.get());
        }
        return count;
    }

    private static Optional<Instant> nextCron(Trigger trigger, Instant after) {
        Cron cron = CronSupport.parse(trigger.expression(), trigger.dialect());
        ExecutionTime execution = CronSupport.execution(trigger.expression(), trigger.dialect());
        boolean allDay = CronSupport.runsEveryHour(cron);
        ZoneId zone = trigger.zone();
        ZoneRules rules = zone.getRules();
        LocalDateTime cursor = LocalDateTime.ofInstant(after, zone);
        Instant valid = null;
        for (int step = 0; step < MAX_STEPS && valid == null; step++) {
            Optional<LocalDateTime> local = nextLocal(execution, cursor);
            if (local.isEmpty()) break;
            LocalDateTime l = local.get();
            Instant candidate = candidate(rules, l, after, allDay);
            if (allDay) {
                candidate = earlierInRepeatedHour(execution, rules, after, candidate);
            }
            if (candidate != null && candidate.isAfter(after)) valid = candidate;
            cursor = l;
        }
        // an all-day expression has no times in a skipped hour (they do not exist)
        Instant skipped = allDay ? null : nextSkipped(execution, rules, after, valid);
        if (skipped != null && (valid == null || skipped.isBefore(valid))) return Optional.of(skipped);
        return Optional.ofNullable(valid);
    }

    /** Gap transitions looked through for a skipped time when no other time bounds the search (a century's). */
    private static final int MAX_GAPS = 200;

    /**
     * The first time in a skipped hour (a daylight-saving gap) that fires after {@code after} and before {@code
     * bound}, or null. Such a time fires as far past the gap as it lay in it (02:10 at 03:10 when 02:00 jumps to
     * 03:00): on the clock before the change. These times are a stream of their own beside the existing ones, and
     * not in wall-clock order with them when the gap is not a whole hour (Lord Howe's 30 minutes: 02:20 fires at
     * 02:50, after the real 02:40).
     */
    private static Instant nextSkipped(ExecutionTime execution, ZoneRules rules, Instant after, Instant bound) {
        // the last gap, while its skipped times still fire after `after`; else the gaps to come
        ZoneOffsetTransition gap = rules.previousTransition(after.plusNanos(1));
        if (gap == null || !gap.isGap() || !after.isBefore(gap.getInstant().plus(gap.getDuration()))) {
            gap = rules.nextTransition(after);
        }
        for (int i = 0; gap != null && i < MAX_GAPS; i++, gap = rules.nextTransition(gap.getInstant())) {
            if (bound != null && !gap.getInstant().isBefore(bound)) return null;
            if (!gap.isGap()) continue;
            LocalDateTime from = LocalDateTime.ofInstant(after, gap.getOffsetBefore());
            LocalDateTime start = gap.getDateTimeBefore().minusSeconds(1);
            Optional<LocalDateTime> l = nextLocal(execution, from.isAfter(start) ? from : start);
            if (l.isPresent() && l.get().isBefore(gap.getDateTimeAfter())) {
                return l.get().toInstant(gap.getOffsetBefore());
            }
        }
        return null;
    }

    /**
     * The instant a matching wall-clock time fires at, or null when it does not fire after {@code after}; null for a
     * time in a skipped hour too (those are {@link #nextSkipped}'s).
     */
    private static Instant candidate(ZoneRules rules, LocalDateTime l, Instant after, boolean allDay) {
        List<ZoneOffset> offsets = rules.getValidOffsets(l);
        if (offsets.size() == 1) {
            return l.toInstant(offsets.get(0));
        }
        if (offsets.isEmpty()) return null;
        Instant a = l.toInstant(offsets.get(0));
        Instant b = l.toInstant(offsets.get(1));
        Instant first = a.isBefore(b) ? a : b;
        Instant second = a.isBefore(b) ? b : a;
        if (first.isAfter(after)) return first;
        return allDay && second.isAfter(after) ? second : null;
    }

    /**
     * An all-day expression walked by wall clock would jump from the end of the first copy of a repeated hour to the
     * hour after it; the fires in the second copy come first.
     */
    private static Instant earlierInRepeatedHour(
            ExecutionTime execution, ZoneRules rules, Instant after, Instant candidate) {
        ZoneOffsetTransition t = rules.nextTransition(after);
        if (t == null || !t.isOverlap() || (candidate != null && !t.getInstant().isBefore(candidate))) {
            return candidate;
        }
        Optional<LocalDateTime> inRepeat =
                nextLocal(execution, t.getDateTimeAfter().minusNanos(1));
        if (inRepeat.isEmpty() || !inRepeat.get().isBefore(t.getDateTimeBefore())) return candidate;
        Instant repeated = inRepeat.get().toInstant(t.getOffsetAfter());
        if (!repeated.isAfter(after)) return candidate;
        return candidate == null || repeated.isBefore(candidate) ? repeated : candidate;
    }

    /**
     * The next matching wall-clock time strictly after {@code cursor}, computed on a zone without transitions. Fire
     * times are whole seconds; cron-utils would carry the cursor's fraction into its answer.
     */
    private static Optional<LocalDateTime> nextLocal(ExecutionTime execution, LocalDateTime cursor) {
        return execution
                .nextExecution(cursor.truncatedTo(ChronoUnit.SECONDS).atZone(ZoneOffset.UTC))
                .map(t -> t.toLocalDateTime().truncatedTo(ChronoUnit.SECONDS));
    }
}
