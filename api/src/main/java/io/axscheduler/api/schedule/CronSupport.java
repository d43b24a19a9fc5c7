package io.axscheduler.api.schedule;

import com.cronutils.descriptor.CronDescriptor;
import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.field.expression.Always;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
            cron = (dialect == CronDialect.UNIX ? UNIX : QUARTZ)
                    .parse(expression)
                    .validate();
        } catch (IllegalArgumentException e) {
            String hint = dialect == CronDialect.UNIX
                    ? " (unix dialect: five fields, minute hour day-of-month month day-of-week)"
                    : " (quartz dialect: second minute hour day-of-month month day-of-week [year], with ? in one of the"
                            + " day fields; use \"dialect\":\"unix\" for five fields)";
            throw new InvalidTriggerException("expression", "is not a valid cron expression: " + e.getMessage() + hint);
        }
        if (cache.size() < CACHE_LIMIT) cache.put(key, cron);
        return cron;
    }

    static ExecutionTime execution(String expression, CronDialect dialect) {
        String key = dialect + " " + expression;
        ExecutionTime cached = executions.get(key);
        if (cached != null) return cached;
        ExecutionTime execution = ExecutionTime.forCron(parse(expression, dialect));
        if (executions.size() < CACHE_LIMIT) executions.put(key, execution);
        return execution;
    }

    /** Hour field {@code *}: the expression runs all day, so it also runs in a repeated (fall-back) hour. */
    static boolean runsEveryHour(Cron cron) {
        return cron.retrieve(CronFieldName.HOUR).getExpression() instanceof Always;
    }

    static String describe(Cron cron) {
        return CronDescriptor.instance(Locale.UK).describe(cron);
    }
}
