package io.axscheduler.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.job.HandBackReason;
import io.axscheduler.query.history.HistoryEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A job's or schedule's events as the console's timeline shows them: each with the time since the one before. */
record Timeline(List<Step> steps, List<Attempt> attempts) {

    record Step(
            long sequence,
            String type,
            Instant at,
            Long sincePreviousMs,
            String actor,
            String node,
            String worker,
            Integer attempt,
            String detail) {}

    /** One run of the job: how it ended and its error (with its stack trace when the handler gave one). */
    record Attempt(
            int number, String node, String worker, Instant startedAt, String outcome, Long durationMs, String error) {}

    /**
     * The timeline's words in a page's language: the message {@code key} with {@code args}, or {@code english} (a
     * {@link java.text.MessageFormat} pattern) when the language has none.
     */
    @FunctionalInterface
    interface Words {
        String say(String key, String english, Object... args);

        /** The English of the code itself; a text with no arguments as it is (MessageFormat would eat its quotes). */
        Words ENGLISH =
                (key, english, args) -> args.length == 0 ? english : java.text.MessageFormat.format(english, args);
    }

    static Timeline of(List<HistoryEvent> events) {
        return of(events, Words.ENGLISH);
    }

    static Timeline of(List<HistoryEvent> events, Words words) {
        List<Step> steps = new ArrayList<>();
        List<Attempt> attempts = new ArrayList<>();
        Instant previous = null;
        Attempt running = null;
        for (HistoryEvent e : events) {
            JsonNode p = e.payload();
            String node = text(p, "node");
            if (node == null && e.metadata().get("node") != null)
                node = e.metadata().get("node").toString();
            String actor = e.metadata().get("actor") == null
                    ? null
                    : e.metadata().get("actor").toString();
            Integer attempt = p.has("attempt") ? p.get("attempt").asInt() : null;
            steps.add(new Step(
                    e.sequence(),
                    e.type(),
                    e.timestamp(),
                    previous == null ? null : e.timestamp().toEpochMilli() - previous.toEpochMilli(),
                    actor,
                    node,
                    text(p, "worker"),
                    attempt,
                    detail(e.type(), p, words)));
            previous = e.timestamp();
            switch (e.type()) {
                case "JobStarted" -> {
                    running = new Attempt(
                            attempt == null ? attempts.size() + 1 : attempt,
                            node,
                            text(p, "worker"),
                            e.timestamp(),
                            "RUNNING",
                            null,
                            null);
                    attempts.add(running);
                }
                case "JobSucceeded", "JobFailed", "JobTimedOut" -> {
                    if (running != null && !(e.type().equals("JobTimedOut") && "CLAIM".equals(text(p, "phase")))) {
                        String outcome = switch (e.type()) {
                            case "JobSucceeded" -> "SUCCEEDED";
                            case "JobFailed" -> "FAILED";
                            default -> "TIMED_OUT";
                        };
                        Long duration = p.has("durationMs")
                                ? Long.valueOf(p.get("durationMs").asLong())
                                : e.timestamp().toEpochMilli()
                                        - running.startedAt().toEpochMilli();
                        Attempt ended = new Attempt(
                                running.number(),
                                running.node(),
                                text(p, "worker") != null ? text(p, "worker") : running.worker(),
                                running.startedAt(),
                                outcome,
                                duration,
                                text(p, "error"));
                        attempts.set(attempts.size() - 1, ended);
                        running = null;
                    }
                }
                default -> {}
            }
        }
        return new Timeline(steps, attempts);
    }

    private static String detail(String type, JsonNode p, Words words) {
        return switch (type) {
            case "JobCreated" ->
                words.say("timeline.JobCreated", "type {0}, due {1}", text(p, "jobType"), text(p, "runAt"));
            case "JobClaimed" -> words.say("timeline.JobClaimed", "lease until {0}", text(p, "leaseUntil"));
            case "JobSucceeded" -> text(p, "result");
            case "JobFailed" -> firstLine(text(p, "error"));
            case "JobTimedOut" ->
                p.path("reason").isTextual()
                        ? words.say(
                                "timeline.JobTimedOut.reason", "phase {0}: {1}", text(p, "phase"), text(p, "reason"))
                        : words.say("timeline.JobTimedOut", "phase {0}", text(p, "phase"));
            case "JobHandedBack" ->
                words.say(
                        "timeline.JobHandedBack",
                        "handed back before it started: {0}",
                        handBackReason(text(p, "reason"), words));
            case "JobRetryScheduled" ->
                p.path("manual").asBoolean()
                        ? words.say("timeline.JobRetryScheduled.manual", "due {0} (manual)", text(p, "runAt"))
                        : words.say("timeline.JobRetryScheduled", "due {0}", text(p, "runAt"));
            case "JobCanceled" -> text(p, "reason");
            case "ScheduleFireSkipped" -> text(p, "reason");
            case "ScheduleFired" ->
                words.say("timeline.ScheduleFired", "fire {0} → job {1}", text(p, "fireTime"), text(p, "jobId"));
            default -> null;
        };
    }

    private static String handBackReason(String reason, Words words) {
        for (HandBackReason known : HandBackReason.values()) {
            if (known.name().equals(reason)) return words.say("timeline.handBack." + reason, known.description());
        }
        return reason;
    }

    private static String firstLine(String s) {
        if (s == null) return null;
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    static String text(JsonNode p, String field) {
        JsonNode v = p.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
