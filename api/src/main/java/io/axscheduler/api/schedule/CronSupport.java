package io.axscheduler.api.schedule;

import com.cronutils.descriptor.CronDescriptor;
import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.field.expression.Always;
import com.cronutils.model.field.expression.And;
import com.cronutils.model.field.expression.Between;
import com.cronutils.model.field.expression.Every;
import com.cronutils.model.field.expression.FieldExpression;
import com.cronutils.model.field.expression.On;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing and describing cron expressions with cron-utils; parsed expressions are cached (they are immutable). */
final class CronSupport {

    private static final CronParser QUARTZ =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final int CACHE_LIMIT = 10_000;
    private static final Map<String, Cron> cache = new ConcurrentHashMap<>();
    private static final Map<String, ExecutionTime> executions = new ConcurrentHashMap<>();

    private CronSupport() {}

    static Cron parse(String expression, CronDialect dialect) {
        String key = dialect + " " + expression;
        Cron cached = cache.get(key);
        if (cached != null) return cached;
        Cron cron;
        try {
            cron = dialect == CronDialect.UNIX
                    ? UNIX.parse(sundayFirst(expression)).validate()
                    : QUARTZ.parse(expression).validate();
        } catch (IllegalArgumentException e) {
            String nickname = nickname(expression.trim(), dialect);
            if (nickname != null) throw new InvalidTriggerException("expression", nickname);
            String bothDays = dialect == CronDialect.UNIX ? null : dayFields(expression);
            if (bothDays != null) throw new InvalidTriggerException("expression", bothDays);
            String hint = dialect == CronDialect.UNIX
                    ? " (unix dialect: five fields, minute hour day-of-month month day-of-week)"
                    : " (quartz dialect: second minute hour day-of-month month day-of-week [year], with ? in one of the"
                            + " day fields; use \"dialect\":\"unix\" for five fields)";
            // cron-utils' "Period 0 not in range [0, 59]" for a step of 0 names a range 0 is in
            String why = e.getMessage() != null && e.getMessage().contains("Period 0 not in range")
                    ? "a step of /0 never moves on; a step is 1 or more"
                    : e.getMessage();
            throw new InvalidTriggerException("expression", "is not a valid cron expression: " + why + hint);
        }
        if (cache.size() < CACHE_LIMIT) cache.put(key, cron);
        return cron;
    }

    /** Each cron nickname's fields: unix, then quartz. */
    private static final Map<String, String[]> NICKNAMES = Map.of(
            "@yearly", new String[] {"0 0 1 1 *", "0 0 0 1 1 ?"},
            "@annually", new String[] {"0 0 1 1 *", "0 0 0 1 1 ?"},
            "@monthly", new String[] {"0 0 1 * *", "0 0 0 1 * ?"},
            "@weekly", new String[] {"0 0 * * 0", "0 0 0 ? * SUN"},
            "@daily", new String[] {"0 0 * * *", "0 0 0 * * ?"},
            "@midnight", new String[] {"0 0 * * *", "0 0 0 * * ?"},
            "@hourly", new String[] {"0 * * * *", "0 0 * * * ?"});

    /** A cron nickname ({@code @daily}) refused with the fields to write instead; null for any other expression. */
    private static String nickname(String expression, CronDialect dialect) {
        if (!expression.startsWith("@")) return null;
        String[] fields = NICKNAMES.get(expression.toLowerCase(java.util.Locale.ROOT));
        if (fields == null) {
            return "is not a valid cron expression: nicknames such as @daily are not taken, and " + expression
                    + " is none of @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly; write the fields";
        }
        String unix = fields[0], quartz = fields[1];
        return "is not a valid cron expression: nicknames such as " + expression + " are not taken; write the fields: "
                + (dialect == CronDialect.UNIX ? unix : quartz + " (or " + unix + " with \"dialect\":\"unix\")");
    }

    /** Why an expression that never fires does not, where the expression shows it; else empty. */
    static String whyNever(String expression, CronDialect dialect) {
        String[] fields = expression.trim().split("\\s+");
        if (dialect == CronDialect.UNIX || fields.length < 6) return "";
        Matcher nth = NTH.matcher(fields[5]);
        if (nth.find() && Integer.parseInt(nth.group(1)) > 5)
            return ": day-of-week " + fields[5] + " asks for the " + nth.group(1) + "th such weekday of a month, and"
                    + " a month has at most five (#1 to #5)";
        return dayNoMonthHas(fields[3], fields[4]);
    }

    /** Day-of-month a single number its month (a single month) never has: {@code 31 2} (February 31st). */
    private static String dayNoMonthHas(String day, String month) {
        if (!day.matches("\\d{1,2}")) return "";
        java.time.Month m;
        try {
            m = month.matches("\\d{1,2}")
                    ? java.time.Month.of(Integer.parseInt(month))
                    : java.util.Arrays.stream(java.time.Month.values())
                            .filter(x -> x.name().startsWith(month.toUpperCase(java.util.Locale.ROOT))
                                    && month.length() == 3)
                            .findFirst()
                            .orElse(null);
        } catch (java.time.DateTimeException e) {
            return "";
        }
        if (m == null || Integer.parseInt(day) <= m.maxLength()) return "";
        return ": " + m.getDisplayName(java.time.format.TextStyle.FULL, Locale.UK) + " has no day " + day + " (at most "
                + m.maxLength() + ")";
    }

    private static final Pattern NTH = Pattern.compile("#(\\d+)");

    /** The day fields' refusal said about the expression as written: both given, or both {@code ?}; else null. */
    private static String dayFields(String expression) {
        String[] fields = expression.trim().split("\\s+");
        if (fields.length >= 6 && fields.length <= 7 && fields[3].equals("?") && fields[5].equals("?")) {
            String[] daily = fields.clone();
            daily[3] = "*";
            return "is not a valid cron expression: its day-of-month and day-of-week are both ?, and Quartz takes ?"
                    + " in exactly one of them (" + String.join(" ", daily) + " runs every day)";
        }
        return bothDayFields(expression);
    }

    /**
     * Quartz's refusal of an expression with both day fields given, said about the expression as written: cron-utils'
     * own echoes its rewrite of it ({@code MON} as {@code 2}). Null when that is not what is wrong.
     */
    static String bothDayFields(String expression) {
        String[] fields = expression.trim().split("\\s+");
        if (fields.length < 6 || fields.length > 7 || fields[3].equals("?") || fields[5].equals("?")) return null;
        String[] weekly = fields.clone(), monthly = fields.clone();
        weekly[3] = "?";
        monthly[5] = "?";
        try {
            QUARTZ.parse(String.join(" ", weekly)).validate();
        } catch (IllegalArgumentException somethingElseToo) {
            return null;
        }
        return "is not a valid cron expression: its day-of-month (" + fields[3] + ") and day-of-week (" + fields[5]
                + ") are both given, and Quartz takes ? in one of them: " + String.join(" ", weekly) + " for the"
                + " weekdays, " + String.join(" ", monthly) + " for the days of the month (use \"dialect\":\"unix\""
                + " for five fields, where both run: either day)";
    }

    static ExecutionTime execution(String expression, CronDialect dialect) {
        String key = dialect + " " + expression;
        ExecutionTime cached = executions.get(key);
        if (cached != null) return cached;
        ExecutionTime execution = ExecutionTime.forCron(parse(expression, dialect));
        if (executions.size() < CACHE_LIMIT) executions.put(key, execution);
        return execution;
    }

    /**
     * An hour field that matches every hour ({@code *}, or as {@code *}/{@code 1}, {@code 0/1}, {@code 0-23} or a
     * list of all 24 write it): the expression runs all day, so it also runs in a repeated (fall-back) hour.
     */
    static boolean runsEveryHour(Cron cron) {
        BitSet hours = hours(cron.retrieve(CronFieldName.HOUR).getExpression());
        return hours != null && hours.cardinality() == 24;
    }

    /** The hours (0–23) an hour field's expression matches; null for a form an hour field does not take. */
    private static BitSet hours(FieldExpression e) {
        BitSet hours = new BitSet(24);
        if (e instanceof Always) {
            hours.set(0, 24);
        } else if (e instanceof On on
                && on.getNth().getValue() == null
                && on.getTime().getValue() != null) {
            hours.set(on.getTime().getValue());
        } else if (e instanceof Between between
                && between.getFrom().getValue() instanceof Integer from
                && between.getTo().getValue() instanceof Integer to
                && from <= to) {
            hours.set(from, to + 1);
        } else if (e instanceof Every every && every.getPeriod().getValue() != null) {
            BitSet range = every.getExpression() instanceof On start
                    ? startingAt(start.getTime().getValue())
                    : hours(every.getExpression());
            if (range == null) return null;
            int period = every.getPeriod().getValue();
            int first = range.nextSetBit(0);
            for (int h = first; h >= 0 && h <= range.previousSetBit(23); h += period) hours.set(h);
        } else if (e instanceof And and) {
            for (FieldExpression part : and.getExpressions()) {
                BitSet more = hours(part);
                if (more == null) return null;
                hours.or(more);
            }
        } else {
            return null;
        }
        return hours;
    }

    /** {@code n/step}: from n to the field's end. */
    private static BitSet startingAt(Integer n) {
        if (n == null) return null;
        BitSet range = new BitSet(24);
        range.set(n, 24);
        return range;
    }

    private static final Pattern SUNDAY_FIRST = Pattern.compile("(?i)(^|,)SUN-");
    private static final Pattern AT_DAY =
            Pattern.compile("at (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) day");

    /**
     * A unix day-of-week range from Sunday ({@code SUN-TUE}) as {@code 0-TUE}: cron-utils reads {@code SUN} as 7 and
     * refuses the range 7-2, where unix cron takes Sunday as the week's first day.
     */
    private static String sundayFirst(String expression) {
        String[] fields = expression.trim().split("\\s+");
        if (fields.length != 5) return expression;
        fields[4] = SUNDAY_FIRST.matcher(fields[4]).replaceAll("$10-");
        return String.join(" ", fields);
    }

    static String describe(Cron cron) {
        String[] fields = cron.asString().split("\\s+");
        // unix cron with both day fields restricted runs on a day matching either (POSIX), where cron-utils' English
        // reads as both: "on day 1 of the month every Monday" for the 1st and every Monday
        if (cron.getCronDefinition().equals(UNIX_DEFINITION)
                && fields.length == 5
                && !fields[2].equals("*")
                && !fields[4].equals("*")) {
            String[] byMonthDay = fields.clone(), byWeekDay = fields.clone();
            byMonthDay[4] = "*";
            byWeekDay[2] = "*";
            return phrased(UNIX.parse(String.join(" ", byMonthDay))) + ", and "
                    + phrased(UNIX.parse(String.join(" ", byWeekDay)));
        }
        return phrased(cron);
    }

    private static String phrased(Cron cron) {
        Cron described = cron;
        String[] fields = cron.asString().split("\\s+");
        boolean quartz = cron.getCronDefinition().equals(QUARTZ_DEFINITION);
        boolean changed = false;
        // one second other than 0 beside a step in the minutes or hours: cron-utils drops the second ("every 15
        // minutes" for 30 */15 * * * ?) or says only it ("and second 30" for 30 0 0/1 * * ?). Described at second
        // 0, the second said after
        if (quartz
                && fields.length >= 6
                && ONE_SECOND.matcher(fields[0]).matches()
                && (fields[1].contains("/") || fields[2].contains("/"))) {
            String[] atZero = fields.clone();
            atZero[0] = "0";
            String text = phrased(QUARTZ.parse(String.join(" ", atZero)));
            return text
                    + (AT_ONE_MINUTE.matcher(text).find() ? " and second " : ", at second ")
                    + Integer.parseInt(fields[0]);
        }
        // Quartz's day-of-week L alone is the week's last day, Saturday; cron-utils describes it as "last Sunday of
        // every month"
        if (quartz && fields.length >= 6 && fields[5].equalsIgnoreCase("L")) {
            fields[5] = "SAT";
            changed = true;
        }
        // a step from an offset or within a range in a time field ("5/15", "3-23/6") loses its start in cron-utils'
        // English ("every 15 minutes", "every 6 hours"), as a year step does ("every 2 years"): the values said
        // instead, or the range spelt out where they are many
        int hour = quartz ? 2 : 1;
        for (int i = 0; i <= hour && i < fields.length; i++) {
            String explicit = offsetStep(fields[i], 0, i == hour ? 23 : 59, i == hour ? 24 : 12);
            if (!explicit.equals(fields[i])) {
                fields[i] = explicit;
                changed = true;
            }
        }
        if (quartz && fields.length == 7) {
            String explicit = offsetStep(fields[6], 1970, 2099, 6);
            if (!explicit.equals(fields[6])) {
                fields[6] = explicit;
                changed = true;
            }
        }
        // a step in a day field starts again each month (1/5: the 1st, 6th … 31st, then the 1st) or week, where
        // cron-utils says "every 5 days" (and "every Monday days" for a weekday step): described as the days it is
        int dom = quartz ? 3 : 2, dow = quartz ? 5 : 4;
        if (fields.length > dow) {
            String days = stepsListed(fields[dom], 1, 31);
            String weekdays = stepsListed(fields[dow], quartz ? 1 : 0, quartz ? 7 : 6);
            if (!days.equals(fields[dom]) || !weekdays.equals(fields[dow])) {
                fields[dom] = days;
                fields[dow] = weekdays;
                changed = true;
            }
        }
        if (changed) described = (quartz ? QUARTZ : UNIX).parse(String.join(" ", fields));
        String text = CronDescriptor.instance(Locale.UK).describe(described);
        text = AT_DAY.matcher(text).replaceAll("every $1");
        for (String[] rewrite : PHRASES) text = text.replaceAll(rewrite[0], rewrite[1]);
        return NTH_WEEKDAY
                .matcher(text)
                .replaceAll(
                        m -> "on the " + ORDINALS[Integer.parseInt(m.group(2))] + " " + m.group(1) + " of every month");
    }

    /**
     * A field of one step ({@code 1/5}, {@code *\/5}, {@code 3-20/4}) within {@code min..max} as the list of its
     * values; any other field as it is.
     */
    static String stepsListed(String field, int min, int max) {
        Matcher step = STEP.matcher(field);
        if (!step.matches()) return field;
        int from = step.group(1) == null ? min : Integer.parseInt(step.group(1));
        int to = step.group(2) == null ? max : Integer.parseInt(step.group(2));
        int by = Integer.parseInt(step.group(3));
        if (by < 1 || from < min || to > max || from > to) return field;
        StringBuilder values = new StringBuilder();
        for (int v = from; v <= to; v += by)
            values.append(values.isEmpty() ? "" : ",").append(v);
        return values.toString();
    }

    /**
     * A time or year field's step from an offset or within a range ({@code 5/15}, {@code 3-23/6}) as the list of its
     * values when they are at most {@code most}, else with its range spelt out ({@code 5-59/2}), a step of one as its
     * range ({@code 1/1}: {@code 1-23}); any other field,
     * and a step from the field's start ({@code *\/15}, {@code 0/15}: "every 15 minutes"), as it is.
     */
    static String offsetStep(String field, int min, int max, int most) {
        Matcher step = WIDE_STEP.matcher(field);
        if (!step.matches() || step.group(1) == null) return field;
        int from = Integer.parseInt(step.group(1));
        int to = step.group(2) == null ? max : Integer.parseInt(step.group(2));
        int by = Integer.parseInt(step.group(3));
        if (by < 1 || from < min || to > max || from > to || (from == min && step.group(2) == null)) return field;
        if (by == 1) return from + "-" + to;
        if ((to - from) / by + 1 > most) return from + "-" + to + "/" + by;
        StringBuilder values = new StringBuilder();
        for (int v = from; v <= to; v += by)
            values.append(values.isEmpty() ? "" : ",").append(v);
        return values.toString();
    }

    private static final Pattern ONE_SECOND = Pattern.compile("[1-5]?[1-9]|[1-5]0");

    private static final Pattern AT_ONE_MINUTE = Pattern.compile("at minute \\d+$");

    private static final Pattern WIDE_STEP = Pattern.compile("(?:\\*|(\\d{1,4})(?:-(\\d{1,4}))?)/(\\d{1,4})");

    private static final Pattern STEP = Pattern.compile("(?:\\*|(\\d{1,2})(?:-(\\d{1,2}))?)/(\\d{1,2})");

    /** A list of two or more numbers or names as cron-utils writes one: "1 and 15", "1, 8 and 15", "May and July". */
    private static final String MANY = "(\\w+(?:, \\w+)* and \\w+)";

    private static final String ONE = "(\\w+)";

    private static final String WEEKDAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";

    /** One weekday or a list of them, as cron-utils writes it. */
    private static final String WEEKDAYS = WEEKDAY + "(?:(?:, | and )" + WEEKDAY + ")*";

    /** Quartz's {@code 6#3}, which cron-utils describes as "Friday 3 of every month". */
    private static final Pattern NTH_WEEKDAY = Pattern.compile("\\b(" + WEEKDAY + ") ([1-5]) of every month");

    private static final String[] ORDINALS = {"", "first", "second", "third", "fourth", "fifth"};

    /**
     * cron-utils' English for single fields reads "at 2 hour at 28 day at March month": said the way a person would.
     * Applied in order, to whole words only.
     */
    private static final String[][] PHRASES = {
        {"\\bat " + MANY + " minutes\\b", "at minutes $1"},
        {"\\bat " + ONE + " minutes?\\b", "at minute $1"},
        {"\\bat " + MANY + " hours\\b", "in hours $1"},
        {"\\bat " + ONE + " hours?\\b", "in hour $1"},
        {"\\bat (" + WEEKDAYS + ") days?\\b", "on $1"},
        {"\\bat " + MANY + " days\\b", "on days $1 of the month"},
        {"\\bat " + ONE + " days?\\b", "on day $1 of the month"},
        {"\\bat (" + MANY + "|" + ONE + ") months?\\b", "in $1"},
        {"\\bat (" + MANY + "|" + ONE + ") years?\\b", "in $1"},
        // a year range reads as if it were the only field restricted ("at 12:00 every year between 2027 and 2028")
        {"\\bevery year between (\\d{4}) and (\\d{4})\\b", "in the years $1 to $2"},
        {"\\bevery month between (\\w+) and (\\w+)\\b", "in the months $1 to $2"},
        {"\\bevery 2 years between (\\d{4}) and (\\d{4})\\b", "in every second year from $1 to $2"},
        {"\\bevery 3 years between (\\d{4}) and (\\d{4})\\b", "in every third year from $1 to $2"},
        {"\\bevery (\\d+) years between (\\d{4}) and (\\d{4})\\b", "in every $1th year from $2 to $3"},
        {"\\bat ((?:\\d+, )*\\d+ and \\d+) seconds\\b", "at seconds $1"}
    };

    private static final com.cronutils.model.definition.CronDefinition QUARTZ_DEFINITION =
            CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ);
    private static final com.cronutils.model.definition.CronDefinition UNIX_DEFINITION =
            CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX);
}
