package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.spi.JobTypeCatalog;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JobRequestParserTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00.000Z");

    /** noop and sleep run everywhere; a worker registered in team-b runs b-only. */
    private static final JobTypeCatalog CATALOG = new JobTypeCatalog() {
        @Override
        public boolean knows(String namespace, String jobType) {
            return jobTypes(namespace).contains(jobType);
        }

        @Override
        public Set<String> jobTypes(String namespace) {
            return namespace.equals("team-b") ? Set.of("noop", "sleep", "b-only") : Set.of("noop", "sleep");
        }
    };

    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules();
    private final JobRequestParser parser = new JobRequestParser(CATALOG, json, Clock.fixed(NOW, ZoneOffset.UTC));
    private final List<FieldError> errors = new ArrayList<>();

    private JsonNode body(String text) {
        try {
            return json.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** Single quotes in {@code text} stand for double quotes, to keep the JSON readable here. */
    private SubmitJob parse(String text) {
        return parser.parse(body(text), "", errors, Namespaces.DEFAULT);
    }

    private SubmitJob parseValid(String text) {
        SubmitJob job = parse(text);
        assertThat(errors).as("errors of " + text).isEmpty();
        assertThat(job).isNotNull();
        return job;
    }

    /** Parses, expects a refusal, and returns the fields named by the errors. */
    private List<String> refusedFields(String text) {
        SubmitJob job = parse(text);
        assertThat(job).as("a refused job is not returned").isNull();
        assertThat(errors).isNotEmpty();
        return errors.stream().map(FieldError::field).toList();
    }

    private String messageFor(String field) {
        return errors.stream()
                .filter(e -> e.field().equals(field))
                .map(FieldError::message)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no error for " + field + " in " + errors));
    }

    // --- accepted requests ---

    @Test
    void a_job_with_only_a_type_gets_every_default() {
        SubmitJob job = parseValid("{'jobType': 'noop'}");

        assertThat(job.jobType()).isEqualTo("noop");
        assertThat(job.retryPolicy()).isEqualTo(new RetryPolicy(3, Backoff.defaults()));
        assertThat(job.timeoutMs()).isEqualTo(30_000);
        assertThat(job.priority()).isZero();
        assertThat(job.runAt()).isEqualTo(NOW);
        assertThat(job.params()).isEmpty();
        assertThat(job.jobKey()).isNull();
        assertThat(job.scheduleId()).isNull();
        assertThat(job.executorApp()).isNull();
        assertThat(job.routeStrategy()).isNull();
    }

    @Test
    void a_job_type_only_another_namespaces_workers_run_is_refused_without_naming_theirs() {
        assertThat(parseValid("{'jobType': 'b-only', 'namespace': 'team-b'}").namespace())
                .isEqualTo("team-b");

        assertThat(refusedFields("{'jobType': 'b-only', 'namespace': 'team-a'}"))
                .containsExactly("jobType");
        String message = messageFor("jobType");
        assertThat(message).startsWith("unknown job type 'b-only' in namespace 'team-a'; known types: [");
        assertThat(message.substring(message.indexOf("known types")))
                .contains("noop", "sleep")
                .doesNotContain("b-only");
        errors.clear();
        // no namespace is the default one; a namespace that is not one is the only error, no type judged or listed
        assertThat(refusedFields("{'jobType': 'b-only'}")).containsExactly("jobType");
        errors.clear();
        assertThat(refusedFields("{'jobType': 'b-only', 'namespace': 'Team B'}"))
                .containsExactly("namespace");
    }

    @Test
    void each_parsed_job_gets_a_fresh_uuid() {
        SubmitJob first = parseValid("{'jobType': 'noop'}");
        SubmitJob second = parseValid("{'jobType': 'noop'}");

        assertThat(UUID.fromString(first.jobId()).toString()).isEqualTo(first.jobId());
        assertThat(second.jobId()).isNotEqualTo(first.jobId());
    }

    @Test
    void delay_ms_puts_run_at_that_long_after_now() {
        assertThat(parseValid("{'jobType': 'noop', 'delayMs': 1500}").runAt()).isEqualTo(NOW.plusMillis(1_500));
    }

    @Test
    void run_at_is_taken_as_given_to_the_millisecond() {
        assertThat(parseValid("{'jobType': 'noop', 'runAt': '2027-01-02T03:04:05.678Z'}")
                        .runAt())
                .isEqualTo(Instant.parse("2027-01-02T03:04:05.678Z"));
    }

    @Test
    void null_fields_count_as_absent() {
        SubmitJob job =
                parseValid("{'jobType': 'sleep', 'runAt': '2027-01-02T03:04:05Z', 'delayMs': null, 'params': null,"
                        + " 'backoff': null, 'priority': null}");

        assertThat(job.runAt()).isEqualTo(Instant.parse("2027-01-02T03:04:05Z"));
        assertThat(job.params()).isEmpty();
        assertThat(job.retryPolicy().backoff()).isEqualTo(Backoff.defaults());
    }

    @Test
    void every_field_given_is_carried_into_the_command() {
        SubmitJob job =
                parseValid("{'jobType': 'sleep', 'jobKey': 'order-42-close', 'params': {'ms': 10, 'tags': ['a']},"
                        + " 'priority': -5, 'maxRetries': 7, 'backoff': {'initialMs': 200, 'multiplier': 3, 'maxMs': 5000},"
                        + " 'timeoutMs': 60000, 'executorApp': 'billing', 'routeStrategy': 'ROUND_ROBIN'}");

        assertThat(job.jobKey()).isEqualTo("order-42-close");
        assertThat(job.params()).isEqualTo(Map.of("ms", 10, "tags", List.of("a")));
        assertThat(job.priority()).isEqualTo(-5);
        assertThat(job.retryPolicy()).isEqualTo(new RetryPolicy(7, Backoff.exponential(200, 3.0, 5_000)));
        assertThat(job.timeoutMs()).isEqualTo(60_000);
        assertThat(job.executorApp()).isEqualTo("billing");
        assertThat(job.routeStrategy()).isEqualTo("ROUND_ROBIN");
    }

    @Test
    void an_explicit_delay_list_becomes_the_backoff() {
        SubmitJob job = parseValid("{'jobType': 'noop', 'backoff': {'delaysMs': [100, 0, 5000]}}");

        assertThat(job.retryPolicy().backoff()).isEqualTo(Backoff.delays(List.of(100L, 0L, 5_000L)));
    }

    @Test
    void a_partial_exponential_backoff_takes_defaults_for_the_rest() {
        SubmitJob job = parseValid("{'jobType': 'noop', 'backoff': {'initialMs': 500}}");

        assertThat(job.retryPolicy().backoff()).isEqualTo(Backoff.exponential(500, 2.0, 300_000));
    }

    @Test
    void params_of_exactly_64_kib_are_accepted() {
        ObjectNode body = json.createObjectNode().put("jobType", "noop");
        body.putObject("params").put("a", "x".repeat(JobRequestParser.MAX_PARAMS_BYTES - "{\"a\":\"\"}".length()));

        assertThat(parser.parse(body, "", errors, Namespaces.DEFAULT)).isNotNull();
        assertThat(errors).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "FIRST",
                "ROUND_ROBIN",
                "RANDOM",
                "CONSISTENT_HASH",
                "LEAST_RECENTLY_USED",
                "LEAST_LOADED",
                "FAILOVER",
                "SHARDING_BROADCAST"
            })
    void every_route_strategy_is_accepted(String strategy) {
        assertThat(parseValid("{'jobType': 'noop', 'routeStrategy': '" + strategy + "'}")
                        .routeStrategy())
                .isEqualTo(strategy);
    }

    // --- refused requests, each naming its field ---

    @Test
    void a_body_that_is_not_an_object_is_refused_as_the_body() {
        assertThat(refusedFields("[{'jobType': 'noop'}]")).containsExactly("body");
    }

    @Test
    void a_missing_job_type_is_refused() {
        assertThat(refusedFields("{'priority': 1}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).isEqualTo("is required");
    }

    @Test
    void a_null_job_type_is_refused_as_missing() {
        assertThat(refusedFields("{'jobType': null}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).isEqualTo("is required");
    }

    @Test
    void an_unknown_job_type_is_refused_naming_the_known_ones() {
        assertThat(refusedFields("{'jobType': 'email'}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).contains("'email'").contains("noop").contains("sleep");
    }

    @Test
    void the_schedulers_own_job_types_and_fire_keys_are_no_requests() {
        assertThat(refusedFields("{'jobType': 'ax-alert'}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).contains("scheduler's own");
        errors.clear();
        assertThat(refusedFields("{'jobType': 'noop', 'jobKey': 'schedule:s-1@2026-11-30T10:01:00.000Z'}"))
                .containsExactly("jobKey");
        assertThat(messageFor("jobKey")).contains("schedule:");
        errors.clear();
        assertThat(refusedFields("{'jobType': 'noop', 'jobKey': 'alert:a-1:RESOLVED:oncall'}"))
                .containsExactly("jobKey");
        errors.clear();
        assertThat(parseValid("{'jobType': 'noop', 'jobKey': 'my-schedule:1'}").jobKey())
                .isEqualTo("my-schedule:1");
    }

    @Test
    void a_job_type_that_is_not_a_string_is_refused_once_as_a_wrong_type() {
        assertThat(refusedFields("{'jobType': 42}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).isEqualTo("must be a string");
    }

    @Test
    void a_blank_job_type_is_refused() {
        assertThat(refusedFields("{'jobType': '  '}")).containsExactly("jobType");
        assertThat(messageFor("jobType")).isEqualTo("must not be blank");
    }

    @Test
    void an_unknown_field_is_refused_by_its_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'maxRetry': 5}")).containsExactly("maxRetry");
        assertThat(messageFor("maxRetry")).isEqualTo("is not a known field");
    }

    @Test
    void run_at_and_delay_ms_together_are_refused() {
        assertThat(refusedFields("{'jobType': 'noop', 'runAt': '2027-01-01T00:00:00Z', 'delayMs': 10}"))
                .containsExactly("runAt");
        assertThat(messageFor("runAt")).contains("not both");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tomorrow", "2027-01-01", "2027-01-01T10:00:00", "2027-13-01T00:00:00Z"})
    void a_run_at_that_is_not_an_iso_instant_is_refused(String runAt) {
        assertThat(refusedFields("{'jobType': 'noop', 'runAt': '" + runAt + "'}"))
                .containsExactly("runAt");
    }

    @Test
    void a_run_at_beyond_what_epoch_milliseconds_can_hold_is_refused() {
        assertThat(refusedFields("{'jobType': 'noop', 'runAt': '+300000000-01-01T00:00:00Z'}"))
                .containsExactly("runAt");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "delayMs    | -1    | must not be negative",
                "maxRetries | -1    | must not be negative",
                "timeoutMs  | -1    | must be at least 1",
                "timeoutMs  | 0     | must be at least 1",
                "maxRetries | 101   | must be at most 100",
                "priority   | 1001  | must be at most 1000",
                "priority   | -1001 | must be at least -1000",
                "timeoutMs  | 86400001 | must be at most 86400000",
                "delayMs    | 31622400001 | must be at most 31622400000",
                "priority   | 99999999999999999999999 | must be at most 1000",
                "priority   | -99999999999999999999999 | must be at least -1000",
                "delayMs    | 9223372036854775808 | must be at most 31622400000"
            })
    void numbers_out_of_range_are_refused_with_the_bound(String field, String value, String message) {
        assertThat(refusedFields("{'jobType': 'noop', '" + field + "': " + value + "}"))
                .containsExactly(field);
        assertThat(messageFor(field)).isEqualTo(message);
    }

    @Test
    void a_number_in_params_too_large_for_a_float_is_refused_not_stored_as_a_string() {
        // read as infinite, it would be written back as "Infinity" in the number's place
        assertThat(refusedFields("{'jobType': 'noop', 'params': {'a': {'n': [1, 1e999999]}}}"))
                .containsExactly("params.a.n[1]");
        assertThat(messageFor("params.a.n[1]")).contains("beyond the range of a 64-bit float");
        errors.clear();
        assertThat(refusedFields("{'jobType': 'noop', 'params': {'n': -1E400}}"))
                .containsExactly("params.n");
        errors.clear();
        assertThat(parseValid("{'jobType': 'noop', 'params': {'n': 1.7976931348623157E308}}")
                        .params()
                        .get("n"))
                .isEqualTo(Double.MAX_VALUE);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "priority   | 'high'",
                "priority   | 1.5",
                "maxRetries | '3'",
                "timeoutMs  | true",
                "delayMs    | {}"
            })
    void numbers_of_the_wrong_type_are_refused_as_not_whole(String field, String value) {
        assertThat(refusedFields("{'jobType': 'noop', '" + field + "': " + value + "}"))
                .containsExactly(field);
        assertThat(messageFor(field)).isEqualTo("must be a whole number");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {"jobKey        | 42", "runAt         | 1700000000000", "executorApp   | ['a']", "routeStrategy | 1"
            })
    void strings_of_the_wrong_type_are_refused(String field, String value) {
        assertThat(refusedFields("{'jobType': 'noop', '" + field + "': " + value + "}"))
                .containsExactly(field);
        assertThat(messageFor(field)).isEqualTo("must be a string");
    }

    @Test
    void a_job_key_longer_than_255_characters_is_refused() {
        assertThat(parseValid("{'jobType': 'noop', 'jobKey': '" + "k".repeat(255) + "'}")
                        .jobKey())
                .hasSize(255);
        assertThat(refusedFields("{'jobType': 'noop', 'jobKey': '" + "k".repeat(256) + "'}"))
                .containsExactly("jobKey");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"[1, 2]", "'text'", "3"})
    void params_that_are_not_an_object_are_refused(String params) {
        assertThat(refusedFields("{'jobType': 'noop', 'params': " + params + "}"))
                .containsExactly("params");
        assertThat(messageFor("params")).isEqualTo("must be a JSON object");
    }

    @Test
    void params_over_64_kib_are_refused() {
        ObjectNode body = json.createObjectNode().put("jobType", "noop");
        body.putObject("params").put("a", "x".repeat(JobRequestParser.MAX_PARAMS_BYTES - "{\"a\":\"\"}".length() + 1));

        assertThat(parser.parse(body, "", errors, Namespaces.DEFAULT)).isNull();
        assertThat(errors).extracting(FieldError::field).containsExactly("params");
        assertThat(messageFor("params")).contains("64 KiB").contains("65537 bytes");
    }

    @Test
    void params_are_measured_in_utf8_bytes_not_characters() {
        ObjectNode body = json.createObjectNode().put("jobType", "noop");
        // 'é' is two bytes: 40,000 of them are under 64 K characters but over 64 KiB
        body.putObject("params").put("a", "é".repeat(40_000));

        assertThat(parser.parse(body, "", errors, Namespaces.DEFAULT)).isNull();
        assertThat(errors).extracting(FieldError::field).containsExactly("params");
    }

    @Test
    void a_backoff_that_is_not_an_object_is_refused() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': [100]}")).containsExactly("backoff");
    }

    @Test
    void a_backoff_of_both_shapes_is_refused_as_the_backoff() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'initialMs': 100, 'delaysMs': [100]}}"))
                .containsExactly("backoff");
        assertThat(messageFor("backoff")).contains("not both");
    }

    @Test
    void an_empty_delay_list_is_refused_by_its_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'delaysMs': []}}"))
                .containsExactly("backoff.delaysMs");
        assertThat(messageFor("backoff.delaysMs")).contains("1 to 100 delays");
    }

    @Test
    void a_multiplier_below_one_is_refused_by_its_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'multiplier': 0.5}}"))
                .containsExactly("backoff.multiplier");
        assertThat(messageFor("backoff.multiplier")).contains("between 1 and 100");
    }

    @Test
    void a_cap_below_the_initial_delay_is_refused_by_its_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'initialMs': 5000, 'maxMs': 1000}}"))
                .containsExactly("backoff.maxMs");
        assertThat(messageFor("backoff.maxMs")).contains("at least initialMs (5000)");
    }

    @Test
    void a_backoff_field_is_refused_once_and_a_valid_one_not_for_anothers_fault() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'maxMs': -1}}"))
                .containsExactly("backoff.maxMs");
    }

    @Test
    void an_initial_delay_out_of_range_does_not_blame_the_cap() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'initialMs': 99999999999999, 'maxMs': 60000}}"))
                .containsExactly("backoff.initialMs");
    }

    @Test
    void both_shapes_with_a_bad_multiplier_are_refused_as_both_shapes() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'delaysMs': [100], 'multiplier': 0.5}}"))
                .containsExactly("backoff");
        assertThat(messageFor("backoff")).contains("not both");
    }

    @Test
    void a_cap_below_the_default_initial_delay_is_refused_by_its_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'maxMs': 100}}"))
                .containsExactly("backoff.maxMs");
        assertThat(messageFor("backoff.maxMs")).contains("1000 when not given");
    }

    @Test
    void each_bad_delay_is_refused_by_its_index() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'delaysMs': [100, -1, 'x', 2.5]}}"))
                .containsExactly("backoff.delaysMs[1]", "backoff.delaysMs[2]", "backoff.delaysMs[3]");
    }

    @Test
    void a_delay_list_that_is_not_an_array_is_refused() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'delaysMs': 100}}"))
                .containsExactly("backoff.delaysMs");
    }

    @Test
    void an_unknown_backoff_field_is_refused_by_its_dotted_name() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'initialMs': 100, 'x': 1}}"))
                .containsExactly("backoff.x");
    }

    @Test
    void backoff_parts_of_the_wrong_type_are_refused_by_their_dotted_names() {
        assertThat(refusedFields(
                        "{'jobType': 'noop', 'backoff': {'initialMs': -5, 'multiplier': '2', 'maxMs': 'big'}}"))
                .containsExactlyInAnyOrder("backoff.initialMs", "backoff.multiplier", "backoff.maxMs");
        assertThat(messageFor("backoff.multiplier")).isEqualTo("must be a number");
    }

    @Test
    void an_explicit_delay_over_a_year_is_refused_like_an_exponential_one() {
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'maxMs': 31622400001}}"))
                .containsExactly("backoff.maxMs");
        errors.clear();
        assertThat(refusedFields("{'jobType': 'noop', 'backoff': {'delaysMs': [31622400001]}}"))
                .containsExactly("backoff.delaysMs[0]");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"round_robin", "BEST", " FIRST"})
    void an_unknown_route_strategy_is_refused(String strategy) {
        assertThat(refusedFields("{'jobType': 'noop', 'routeStrategy': '" + strategy + "'}"))
                .containsExactly("routeStrategy");
        assertThat(messageFor("routeStrategy")).contains("ROUND_ROBIN");
    }

    @Test
    void every_error_of_a_request_is_reported_at_once() {
        assertThat(refusedFields("{'jobType': 'email', 'priority': 'high', 'maxRetry': 1, 'timeoutMs': 0}"))
                .containsExactlyInAnyOrder("jobType", "priority", "maxRetry", "timeoutMs");
    }

    @Test
    void errors_of_a_job_inside_a_batch_are_prefixed_with_its_path() {
        SubmitJob job = parser.parse(
                body("{'jobType': 'noop', 'priority': 'high', 'backoff': {'delaysMs': [-1], 'y': 0}}"),
                "jobs[3]",
                errors,
                Namespaces.DEFAULT);

        assertThat(job).isNull();
        assertThat(errors)
                .extracting(FieldError::field)
                .containsExactlyInAnyOrder("jobs[3].priority", "jobs[3].backoff.y", "jobs[3].backoff.delaysMs[0]");
    }

    @Test
    void a_job_inside_a_batch_that_is_not_an_object_is_refused_by_its_path() {
        assertThat(parser.parse(body("'noop'"), "jobs[0]", errors, Namespaces.DEFAULT))
                .isNull();
        assertThat(errors)
                .extracting(FieldError::field, FieldError::message)
                .containsExactly(tuple("jobs[0]", "must be a JSON object"));
    }

    @Test
    void errors_already_in_the_list_do_not_make_a_good_job_fail() {
        errors.add(new FieldError("jobs[0].jobType", "is required"));

        SubmitJob job = parser.parse(body("{'jobType': 'noop'}"), "jobs[1]", errors, Namespaces.DEFAULT);

        assertThat(job).isNotNull();
        assertThat(errors).hasSize(1);
    }
}
