package io.axscheduler.console;

import io.axscheduler.query.explain.ExplainJob;
import io.axscheduler.query.explain.ExplainSchedule;
import io.axscheduler.query.explain.Reason;
import io.axscheduler.query.explain.ScheduleExplanation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;

/**
 * "Why": the explain answers of query-side ({@link ExplainJob}, {@link ExplainSchedule}), asked directly, as the job
 * and schedule pages show them. Each reason gets a title from the message bundles; its sentence is the answer's own
 * (English) unless the language's bundle has {@code explain.text.<CODE>}, whose {@code {name}}s are the reason's
 * details ({@code {a|b}}: the first of them the reason has), or {@code explain.text.<CODE>.<detail>} for a reason
 * with that detail (a job deleted past the retention, a schedule deleted before its held fire was made). Details naming a job become links to it, unless it was deleted.
 */
@Component
class Why {

    private static final Pattern NAME = Pattern.compile("\\{([A-Za-z|]+)}");
    private static final List<String> JOB_LINKS = List.of("jobId", "runningJobId", "waitingForJobId");

    private final ExplainJob jobs;
    private final ExplainSchedule schedules;
    private final MessageSource messages;

    Why(ExplainJob jobs, ExplainSchedule schedules, MessageSource messages) {
        this.jobs = jobs;
        this.schedules = schedules;
        this.messages = messages;
    }

    /**
     * One reason as a page shows it; {@code sinceLabel}: what {@code since} is to this reason ("since" a state began,
     * "recorded at" an outcome).
     */
    record Shown(String code, String title, String text, Instant since, String sinceLabel, List<Detail> details) {}

    /** One of a reason's details; {@code jobId} is set when the value is a job to link to. */
    record Detail(String name, String label, String value, String jobId) {}

    /** The schedule's answer for one instant: the fire time it concerns (null: none near) and why. */
    record ScheduleWhy(Instant at, Instant fireTime, List<Shown> reasons) {}

    List<Shown> job(String jobId, Locale locale) {
        return shown(jobs.explain(jobId).reasons(), locale, null);
    }

    /** Instants are shown in UTC and, for a schedule of another {@code zone}, in its wall clock too. */
    ScheduleWhy schedule(String scheduleId, Instant at, Locale locale, String zone) {
        ScheduleExplanation e = schedules.explain(scheduleId, at);
        return new ScheduleWhy(e.at(), e.fireTime(), shown(e.reasons(), locale, zone));
    }

    List<Shown> shown(List<Reason> reasons, Locale locale, String zone) {
        List<Shown> list = new ArrayList<>(reasons.size());
        for (Reason r : reasons) {
            List<Detail> details = new ArrayList<>();
            r.details()
                    .forEach((name, value) -> details.add(new Detail(
                            name,
                            messages.getMessage("explain.detail." + name, null, name, locale),
                            text(value, zone),
                            // a job deleted past the retention has no page to link to
                            JOB_LINKS.contains(name)
                                            && !Boolean.TRUE.equals(r.details().get("jobDeleted"))
                                    ? String.valueOf(value)
                                    : null)));
            // a detail that changes the story has a sentence of its own: a fire whose job was deleted past the
            // retention (no job status to fill), a held fire whose schedule was deleted before it was made
            String template = null;
            for (String name : r.details().keySet()) {
                template = messages.getMessage("explain.text." + r.code() + "." + name, null, null, locale);
                if (template != null) break;
            }
            if (template == null) template = messages.getMessage("explain.text." + r.code(), null, null, locale);
            String text = template == null ? r.message() : fill(template, r.details(), zone);
            // a reason the sentence already says in full (a skip's, a cancel's) is not shown twice
            details.removeIf(d -> d.name().equals("reason") && !d.value().isBlank() && text.contains(d.value()));
            list.add(new Shown(
                    r.code(),
                    messages.getMessage("explain.code." + r.code(), null, r.code(), locale),
                    text,
                    r.since(),
                    messages.getMessage(
                            "why.since." + r.code(), null, messages.getMessage("why.since", null, locale), locale),
                    details));
        }
        return list;
    }

    static String fill(String template, Map<String, Object> details) {
        return fill(template, details, null);
    }

    static String fill(String template, Map<String, Object> details, String zone) {
        Matcher m = NAME.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object v = null;
            for (String name : m.group(1).split("\\|")) if (v == null) v = details.get(name);
            m.appendReplacement(out, Matcher.quoteReplacement(v == null ? "—" : text(v, zone)));
        }
        m.appendTail(out);
        return out.toString();
    }

    static String text(Object value) {
        return text(value, null);
    }

    /**
     * Instants in UTC to the millisecond, labelled so, and in {@code zone}'s wall clock as well when it is another
     * zone; lists and maps flattened.
     */
    static String text(Object value, String zone) {
        if (value == null) return "—";
        if (value instanceof Instant i) {
            String local = ConsoleModel.Formats.zoned(i, zone);
            return ConsoleModel.Formats.utc(i) + " UTC" + (local.isEmpty() ? "" : " (" + local + ")");
        }
        if (value instanceof Collection<?> c)
            return c.stream().map(v -> text(v, zone)).collect(Collectors.joining(", "));
        if (value instanceof Map<?, ?> m)
            return m.entrySet().stream()
                    .map(e -> e.getKey() + ": " + text(e.getValue(), zone))
                    .collect(Collectors.joining("; "));
        return String.valueOf(value);
    }
}
