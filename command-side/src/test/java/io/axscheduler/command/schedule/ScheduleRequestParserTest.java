package io.axscheduler.command.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.TriggerType;
import io.axscheduler.api.spi.JobTypeCatalog;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScheduleRequestParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
    /** noop and http run everywhere; a worker registered in team-b runs b-only. */
    private static final JobTypeCatalog CATALOG = new JobTypeCatalog() {
        public boolean knows(String namespace, String jobType) {
            return jobTypes(namespace).contains(jobType);
        }

        public Set<String> jobTypes(String namespace) {
            return namespace.equals("team-b") ? Set.of("noop", "http", "b-only") : Set.of("noop", "http");
        }
    };

    private final ScheduleRequestParser parser = new ScheduleRequestParser(CATALOG, JSON, 1_000);

    private ScheduleRequest parse(String json) throws Exception {
        return parser.parse(JSON.readTree(json), NOW, Namespaces.DEFAULT);
    }

    private FieldError refused(String json) {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class, () -> parse(json));
        assertThat(e).as("refused: " + json).isNotNull();
        return e.errors().get(0);
    }

    @Test
    void a_trigger_number_beyond_a_long_says_the_bound_it_broke() {
        for (String field : new String[] {"intervalMs", "delayMs"}) {
            String type = field.equals("intervalMs") ? "fixedRate" : "fixedDelay";
            FieldError negative = refused("{\"trigger\":{\"type\":\"" + type + "\",\"" + field
                    + "\":-99999999999999999999999},\"job\":{\"jobType\":\"noop\"}}");
            assertThat(negative).isEqualTo(new FieldError("trigger." + field, "must not be negative"));
            FieldError huge = refused("{\"trigger\":{\"type\":\"" + type + "\",\"" + field
                    + "\":99999999999999999999999},\"job\":{\"jobType\":\"noop\"}}");
            assertThat(huge.field()).isEqualTo("trigger." + field);
            assertThat(huge.message()).startsWith("must be at most ");
        }
    }

    @Test
    void a_cron_written_in_other_than_ascii_is_refused_where_its_parser_would_read_other_digits() throws Exception {
        FieldError error = refused("{\"trigger\":{\"type\":\"cron\",\"expression\":\"\u0660 \u0660 * * * ?\"},"
                + "\"job\":{\"jobType\":\"noop\"}}");
        assertThat(error.field()).isEqualTo("trigger.expression");
        assertThat(error.message()).startsWith("must be written in ASCII");
        java.util.List<FieldError> errors = new java.util.ArrayList<>();
        assertThat(ScheduleRequestParser.cron(JSON.readTree("{\"expression\":\"\u0660 \u0660 * * * ?\"}"), errors, NOW))
                .isNull();
        assertThat(errors).extracting(FieldError::field).containsExactly("expression");
    }

    @Test
    void a_job_type_is_judged_in_the_schedules_namespace() throws Exception {
        String b = "{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},\"job\":{\"jobType\":\"b-only\"}";
        assertThat(parse(b + ",\"namespace\":\"team-b\"}").job().jobType()).isEqualTo("b-only");
        FieldError error = refused(b + ",\"namespace\":\"team-a\"}");
        assertThat(error.field()).isEqualTo("job.jobType");
        assertThat(error.message()).startsWith("unknown job type 'b-only' in namespace 'team-a'; known types: ");
        assertThat(error.message().substring(error.message().indexOf("known types")))
                .contains("noop", "http")
                .doesNotContain("b-only");
        // an update is judged in the schedule's namespace, whatever the body names or leaves out
        assertThat(parser.parseIn("team-b", JSON.readTree(b + "}"), NOW).job().jobType())
                .isEqualTo("b-only");
        assertThat(parser.parseIn("team-b", JSON.readTree(b + ",\"namespace\":\"team-a\"}"), NOW)
                        .job()
                        .jobType())
                .isEqualTo("b-only");
    }

    @Test
    void the_contract_example_is_accepted_with_defaults_filled_in() throws Exception {
        ScheduleRequest r = parse("""
                {"name":"close-unpaid-orders","trigger":{"type":"cron","expression":"0 */5 * * * ?","timezone":"Asia/Shanghai"},
                 "job":{"jobType":"http","params":{"x":1},"priority":0,"maxRetries":3,"timeoutMs":30000},
                 "overlapPolicy":"SKIP_IF_RUNNING"}""");
        assertThat(r.trigger().type()).isEqualTo(TriggerType.CRON);
        assertThat(r.misfirePolicy()).isEqualTo(MisfirePolicy.FIRE_ONCE);
        assertThat(r.overlapPolicy()).isEqualTo(OverlapPolicy.SKIP_IF_RUNNING);
        assertThat(r.job().jobType()).isEqualTo("http");
    }

    @Test
    void the_retry_policy_is_read_flat_as_a_job_gives_it_or_nested_as_the_schedule_view_shows_it() throws Exception {
        String trigger = "{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},";
        ScheduleRequest flat = parse(
                trigger + "\"job\":{\"jobType\":\"noop\",\"maxRetries\":2,\"backoff\":{\"delaysMs\":[1000,5000]}}}");
        ScheduleRequest nested = parse(trigger + "\"job\":{\"jobType\":\"noop\",\"retryPolicy\":"
                + "{\"maxRetries\":2,\"backoff\":{\"delaysMs\":[1000,5000]}}}}");
        assertThat(nested.job().retryPolicy()).isEqualTo(flat.job().retryPolicy());
        assertThat(nested.job().retryPolicy().maxRetries()).isEqualTo(2);

        FieldError both = refused(
                trigger + "\"job\":{\"jobType\":\"noop\",\"maxRetries\":1,\"retryPolicy\":{\"maxRetries\":2}}}");
        assertThat(both.field()).isEqualTo("job.retryPolicy");
        assertThat(both.message()).contains("not both");
        FieldError unknown = refused(trigger + "\"job\":{\"jobType\":\"noop\",\"retryPolicy\":{\"retries\":2}}}");
        assertThat(unknown.field()).isEqualTo("job.retryPolicy.retries");
        FieldError tooMany = refused(trigger + "\"job\":{\"jobType\":\"noop\",\"retryPolicy\":{\"maxRetries\":1000}}}");
        assertThat(tooMany.field()).isEqualTo("job.retryPolicy.maxRetries");
        // the view's job names the schedule's namespace: sent back it is accepted, another is not
        assertThat(parse(trigger + "\"job\":{\"jobType\":\"noop\",\"namespace\":\"default\"}}")
                        .job()
                        .jobType())
                .isEqualTo("noop");
        assertThat(refused(trigger + "\"job\":{\"jobType\":\"noop\",\"namespace\":\"team-b\"}}")
                        .field())
                .isEqualTo("job.namespace");
        assertThat(refused(trigger + "\"job\":{\"jobType\":\"noop\",\"namespace\":7}}")
                        .field())
                .isEqualTo("job.namespace");
    }

    @Test
    void every_bad_field_is_named() {
        String job = "\"job\":{\"jobType\":\"noop\"}";
        assertThat(refused("{\"trigger\":{\"type\":\"cron\",\"expression\":\"nope\"}," + job + "}")
                        .field())
                .isEqualTo("trigger.expression");
        assertThat(refused("{\"trigger\":{\"type\":\"cron\",\"expression\":\"0 * * * * ?\",\"timezone\":\"Mars/Base\"},"
                                + job + "}")
                        .field())
                .isEqualTo("trigger.timezone");
        // a bad zone and a bad expression: both named
        InvalidRequestException both = catchThrowableOfType(
                InvalidRequestException.class,
                () -> parse("{\"trigger\":{\"type\":\"cron\",\"expression\":\"0 0 25 * * ?\",\"timezone\":\"PST\"},"
                        + job + "}"));
        assertThat(both.errors().stream().map(FieldError::field))
                .containsExactly("trigger.timezone", "trigger.expression");
        assertThat(refused("{\"trigger\":{\"type\":\"hourly\"}," + job + "}").field())
                .isEqualTo("trigger.type");
        assertThat(refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":-5}," + job + "}")
                        .field())
                .isEqualTo("trigger.intervalMs");
        assertThat(refused("{\"trigger\":{\"type\":\"fixedDelay\",\"delayMs\":-5}," + job + "}")
                        .field())
                .isEqualTo("trigger.delayMs");
        assertThat(refused("{\"trigger\":{\"type\":\"once\",\"at\":\"2020-01-01T00:00:00Z\"}," + job + "}")
                        .field())
                .isEqualTo("trigger.at");
        assertThat(refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":5000}," + job
                                + ",\"misfirePolicy\":\"SOMETIMES\"}")
                        .field())
                .isEqualTo("misfirePolicy");
        assertThat(refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":5000}," + job
                                + ",\"overlapPolicy\":\"NEVER\"}")
                        .field())
                .isEqualTo("overlapPolicy");
        assertThat(refused(
                                "{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":5000},\"job\":{\"jobType\":\"mystery\"}}")
                        .field())
                .isEqualTo("job.jobType");
        assertThat(refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":5000}}")
                        .field())
                .isEqualTo("job");
    }

    @Test
    void a_cron_expression_is_judged_against_the_floor_at_its_dialects_step() throws Exception {
        String quartz =
                "{\"trigger\":{\"type\":\"cron\",\"expression\":\"* * * * * ?\"},\"job\":{\"jobType\":\"noop\"}}";
        String unix = "{\"trigger\":{\"type\":\"cron\",\"expression\":\"* * * * *\",\"dialect\":\"unix\"},"
                + "\"job\":{\"jobType\":\"noop\"}}";
        // at the step itself no sample is taken, and none is needed: nothing fires more often
        assertThat(new ScheduleRequestParser(CATALOG, JSON, 1_000)
                        .parse(JSON.readTree(quartz), NOW, Namespaces.DEFAULT))
                .isNotNull();
        assertThat(new ScheduleRequestParser(CATALOG, JSON, 60_000).parse(JSON.readTree(unix), NOW, Namespaces.DEFAULT))
                .isNotNull();
        // a millisecond above it, the sample refuses them
        assertThat(catchThrowableOfType(
                        InvalidRequestException.class,
                        () -> new ScheduleRequestParser(CATALOG, JSON, 1_001)
                                .parse(JSON.readTree(quartz), NOW, Namespaces.DEFAULT)))
                .isNotNull();
        assertThat(catchThrowableOfType(
                        InvalidRequestException.class,
                        () -> new ScheduleRequestParser(CATALOG, JSON, 60_001)
                                .parse(JSON.readTree(unix), NOW, Namespaces.DEFAULT)))
                .isNotNull();
    }

    @Test
    void a_schedule_firing_more_often_than_the_floor_is_refused_with_the_reason() {
        FieldError e =
                refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":200},\"job\":{\"jobType\":\"noop\"}}");
        assertThat(e.field()).isEqualTo("trigger.intervalMs");
        assertThat(e.message()).contains("more often than the floor").contains("432000 times a day");
        ScheduleRequestParser strict = new ScheduleRequestParser(CATALOG, JSON, 3_600_000);
        InvalidRequestException minutely = catchThrowableOfType(
                InvalidRequestException.class,
                () -> strict.parse(
                        JSON.readTree(
                                "{\"trigger\":{\"type\":\"cron\",\"expression\":\"0 * * * * ?\"},\"job\":{\"jobType\":\"noop\"}}"),
                        NOW,
                        Namespaces.DEFAULT));
        assertThat(minutely.errors().get(0).field()).isEqualTo("trigger.expression");
        assertThat(minutely.errors().get(0).message()).contains("1440 times a day");
    }

    @Test
    void a_fixed_rate_takes_its_phase_from_start_at() throws Exception {
        ScheduleRequest r = parse("""
                {"trigger":{"type":"fixedRate","intervalMs":60000,"startAt":"2026-05-01T10:00:07.250Z"},"job":{"jobType":"noop"}}""");
        assertThat(r.trigger().startAt()).isEqualTo(Instant.parse("2026-05-01T10:00:07.250Z"));
        assertThat(FireTimes.next(r.trigger(), NOW, NOW)).contains(Instant.parse("2026-05-01T10:00:07.250Z"));
        assertThat(parse("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},\"job\":{\"jobType\":\"noop\"}}")
                        .trigger()
                        .startAt())
                .isNull();
    }

    @Test
    void a_bad_start_at_is_named_trigger_start_at() {
        String job = "\"job\":{\"jobType\":\"noop\"}";
        for (String bad : new String[] {
            "\"tomorrow\"", "42", "\"2026-05-01T10:00:00\"", "\"2040-01-01T00:00:00Z\"", "\"1999-01-01T00:00:00Z\""
        }) {
            assertThat(refused("{\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000,\"startAt\":" + bad + "},"
                                    + job + "}")
                            .field())
                    .as(bad)
                    .isEqualTo("trigger.startAt");
        }
        assertThat(refused(
                                "{\"trigger\":{\"type\":\"fixedDelay\",\"delayMs\":60000,\"startAt\":\"2026-05-01T10:00:00Z\"},"
                                        + job + "}")
                        .field())
                .isEqualTo("trigger.startAt");
        assertThat(refused(
                                "{\"trigger\":{\"type\":\"cron\",\"expression\":\"0 * * * * ?\",\"startAt\":\"2026-05-01T10:00:00Z\"},"
                                        + job + "}")
                        .field())
                .isEqualTo("trigger.startAt");
    }
}
