package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hostile and unusual requests an adversarial run found answered wrongly (issue 18, defects 2 to 8), each as it
 * was sent: a 4xx problem+json naming the field, or the write the client asked for and can read back.
 */
class HostileInputIT {

    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Node node;

    /** A status, a content type and the body as text, whatever it holds. */
    record Raw(int status, String contentType, String body) {
        JsonNode json() {
            try {
                return Api.JSON.readTree(body);
            } catch (Exception e) {
                throw new AssertionError("not JSON (" + contentType + "): " + body, e);
            }
        }

        /** The fields the errors name. */
        List<String> fields() {
            List<String> fields = new ArrayList<>();
            json().path("errors").forEach(e -> fields.add(e.path("field").asText()));
            return fields;
        }
    }

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("hostile_input"),
                "node-a",
                Map.of(
                        "ax.scheduler.remote.no-worker-timeout", "1s",
                        "ax.scheduler.remote.no-worker-check-ms", "300",
                        // the http type calls nothing by default; this test's submits name a loopback URL
                        "ax.scheduler.jobs.http-allowed-hosts", "127.0.0.1/32",
                        "ax.api.max-body-bytes", "1048576"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @Test
    void job_keys_differing_in_case_accents_spaces_or_emoji_are_different_jobs() {
        String[][] pairs = {
            {"adv-Case-Key", "adv-case-key"}, {"straße", "strasse"}, {"key", "key "}, {"café", "cafe"}, {"😀", "😃"}
        };
        for (String[] pair : pairs) {
            Raw first = send("POST", "/api/v1/jobs", "{\"jobKey\":" + quote(pair[0]) + ",\"jobType\":\"noop\"}");
            Raw second = send("POST", "/api/v1/jobs", "{\"jobKey\":" + quote(pair[1]) + ",\"jobType\":\"noop\"}");
            assertThat(first.status()).as(pair[0]).isEqualTo(201);
            assertThat(second.status()).as(pair[1] + " after " + pair[0]).isEqualTo(201);
            assertThat(second.json().path("jobId")).isNotEqualTo(first.json().path("jobId"));
        }
        // the same key again is still the same job
        Raw again = send("POST", "/api/v1/jobs", "{\"jobKey\":\"adv-Case-Key\",\"jobType\":\"noop\"}");
        assertThat(again.status()).isEqualTo(200);
    }

    @Test
    void the_schedulers_own_job_type_and_a_fires_job_key_are_no_requests() {
        // a submitted alert delivery would reach the on-call channels signed with their secret
        String alert =
                "{\"jobType\":\"ax-alert\",\"params\":{\"channel\":\"oncall\",\"alert\":{\"alertId\":\"forged\"}}}";
        assertRefused(send("POST", "/api/v1/jobs", alert), "jobType");
        assertRefused(send("POST", "/api/v1/jobs/batch", "{\"jobs\":[" + alert + "]}"), "jobs[0].jobType");
        assertRefused(
                send(
                        "POST",
                        "/api/v1/schedules",
                        "{\"name\":\"forge\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},"
                                + "\"job\":{\"jobType\":\"ax-alert\"}}"),
                "job.jobType");
        Raw unknown = send("POST", "/api/v1/jobs", "{\"jobType\":\"nope\"}");
        assertRefused(unknown, "jobType");
        assertThat(unknown.body()).contains("known types").doesNotContain("ax-alert");
        assertRefused(
                send(
                        "POST",
                        "/api/v1/workers/register",
                        "{\"app\":\"forger\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"ax-alert\"],"
                                + "\"capacity\":1}"),
                "jobTypes[0]");

        // a job holding the key of a schedule's next fire would keep that fire from ever being made
        String schedule = ScheduleHttp.create(node.api, """
                {"name":"hourly","trigger":{"type":"cron","expression":"0 0 * * * ?","timezone":"UTC"},
                 "job":{"jobType":"noop"}}""");
        String next = node.api
                .get("/api/v1/schedules/" + schedule)
                .body()
                .path("nextFireTime")
                .asText();
        assertRefused(
                send(
                        "POST",
                        "/api/v1/jobs",
                        "{\"jobType\":\"noop\",\"delayMs\":600000,\"jobKey\":\"schedule:" + schedule + "@" + next
                                + "\"}"),
                "jobKey");
    }

    @Test
    void a_body_over_the_limit_is_refused_whole_with_or_without_a_length() throws Exception {
        String big = "{\"jobType\":\"noop\",\"delayMs\":600000" + " ".repeat(1_100_000) + "}";
        long jobsBefore = node.jdbc().queryForObject("SELECT COUNT(*) FROM job_queue", Long.class);
        Raw sized = send("POST", "/api/v1/jobs", big);
        assertThat(sized.status()).as(sized.body()).isEqualTo(413);
        assertThat(sized.contentType()).startsWith("application/problem+json");
        assertThat(sized.fields()).containsExactly("body");
        assertThat(sized.body()).contains("\"instance\":\"/api/v1/jobs\"");
        // sent in chunks, no length told: read up to the limit, then refused as a whole
        HttpResponse<String> chunked = postChunked("/api/v1/jobs", big);
        assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(413);
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM job_queue", Long.class))
                .isEqualTo(jobsBefore);
        // under the limit, chunked or not, the body is read as ever
        String small = "{\"jobType\":\"noop\",\"delayMs\":600000" + " ".repeat(900_000) + "}";
        assertThat(send("POST", "/api/v1/jobs", small).status()).isEqualTo(201);
        HttpResponse<String> smallChunked = postChunked("/api/v1/jobs", small);
        assertThat(smallChunked.statusCode()).as(smallChunked.body()).isEqualTo(201);
    }

    @Test
    void a_built_in_types_params_are_judged_at_submit() {
        for (String failTimes : new String[] {"\"x\"", "-1", "1.5", "1001"})
            assertRefused(
                    send(
                            "POST",
                            "/api/v1/jobs",
                            "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":" + failTimes + "}}"),
                    "params.failTimes");
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"sleep\",\"params\":{\"ms\":-1}}"), "params.ms");
    }

    @Test
    void a_request_the_firewall_refuses_is_a_problem_too() {
        Raw trace = send("TRACE", "/api/v1/jobs", null);
        assertThat(trace.status()).isEqualTo(400);
        assertThat(trace.contentType()).startsWith("application/problem+json");
        assertThat(trace.body()).contains("TRACE");
    }

    @Test
    void a_cancel_reason_with_control_characters_is_refused_and_writes_nothing() {
        String job = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        for (String reason : List.of("a\\u0000b", "\\u001b[2J", "x\\u202ey"))
            assertRefused(send("POST", "/api/v1/jobs/" + job + "/cancel", "{\"reason\":\"" + reason + "\"}"), "reason");
        assertThat(node.api.get("/api/v1/jobs/" + job).text("status")).isEqualTo("WAITING");
        // lines and tabs are text
        assertThat(send("POST", "/api/v1/jobs/" + job + "/cancel", "{\"reason\":\"dup of\\n\\tJIRA-1\"}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void requests_that_take_no_body_refuse_one_with_fields() {
        String job = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        String schedule = ScheduleHttp.create(node.api, """
                {"name":"no-body","trigger":{"type":"cron","expression":"0 0 0 1 1 ?","timezone":"UTC"},
                 "job":{"jobType":"noop"}}""");
        assertRefused(send("POST", "/api/v1/jobs/" + job + "/retry", "{\"reason\":\"x\"}"), "reason");
        for (String action : List.of("pause", "resume", "trigger"))
            assertRefused(send("POST", "/api/v1/schedules/" + schedule + "/" + action, "{\"now\":true}"), "now");
        assertRefused(send("POST", "/api/v1/schedules/" + schedule + "/trigger", "[]"), "body");
        // none, or {}, as before
        assertThat(send("POST", "/api/v1/schedules/" + schedule + "/pause", "{}")
                        .status())
                .isEqualTo(200);
        assertThat(send("POST", "/api/v1/schedules/" + schedule + "/resume", "").status())
                .isEqualTo(200);
    }

    @Test
    void a_lone_surrogate_is_refused_not_stored_as_a_question_mark() {
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobKey\":\"\\ud800\",\"jobType\":\"noop\"}"), "jobKey");
        assertRefused(
                send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"params\":{\"a\":[\"x\\udc00\"]}}"),
                "params.a[0]");
    }

    @Test
    void control_and_bidi_characters_in_names_and_an_app_no_worker_could_have_are_refused() {
        for (String key : List.of("a\\u0000b", "line\\nbreak", "\\u001b[31mred", "txt\\u202eexe.txt", "x\\u2066y")) {
            assertRefused(send("POST", "/api/v1/jobs", "{\"jobKey\":\"" + key + "\",\"jobType\":\"noop\"}"), "jobKey");
        }
        assertRefused(
                send(
                        "POST",
                        "/api/v1/schedules",
                        "{\"name\":\"line1\\nline2\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},"
                                + "\"job\":{\"jobType\":\"noop\"}}"),
                "name");
        assertRefused(
                send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"executorApp\":\"bad app\\u0000\"}"),
                "executorApp");
        assertRefused(
                send(
                        "POST",
                        "/api/v1/schedules",
                        "{\"name\":\"remote\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},"
                                + "\"job\":{\"jobType\":\"noop\",\"executorApp\":\"has space\"}}"),
                "job.executorApp");
        // what names may hold: any printable text, in any script
        assertThat(send("POST", "/api/v1/jobs", "{\"jobKey\":\"订单-42 ✓\",\"jobType\":\"noop\"}")
                        .status())
                .isEqualTo(201);
    }

    @Test
    void parallel_manual_triggers_each_make_a_job_that_exists() throws Exception {
        String schedule = ScheduleHttp.create(node.api, """
                {"name":"yearly","trigger":{"type":"cron","expression":"0 0 0 1 1 ?","timezone":"UTC"},
                 "job":{"jobType":"noop"}}""");
        List<CompletableFuture<Raw>> triggers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            triggers.add(CompletableFuture.supplyAsync(
                    () -> send("POST", "/api/v1/schedules/" + schedule + "/trigger", "")));
        }
        Set<String> jobs = new HashSet<>();
        for (CompletableFuture<Raw> trigger : triggers) {
            Raw answer = trigger.get();
            assertThat(answer.status()).as(answer.body()).isEqualTo(201);
            jobs.add(answer.json().path("jobId").asText());
        }
        assertThat(jobs).hasSize(20);
        for (String job : jobs)
            assertThat(node.api.get("/api/v1/jobs/" + job).status()).isEqualTo(200);
    }

    @Test
    void bodies_nested_deeper_than_64_are_refused_and_what_is_accepted_reads_back() {
        Raw deep = send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"params\":" + nested(998) + "}");
        assertRefused(deep, "body");
        // the detail repeats the first error, as for every 400
        assertThat(deep.json().path("detail").asText())
                .isEqualTo("body: nests objects and arrays deeper than 64 levels");
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"params\":" + nested(64) + "}"), "body");
        Raw accepted = send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"params\":" + nested(60) + "}");
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(201);
        String job = accepted.json().path("jobId").asText();
        assertThat(send("GET", "/api/v1/jobs/" + job + "/history", null).status())
                .isEqualTo(200);
        assertThat(send("GET", "/api/v1/jobs/" + job + "/history?asOf=2999-01-01T00:00:00Z", null)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void cron_expressions_that_crash_or_never_fire_are_refused_by_validate_and_create_alike() {
        for (String expression : List.of("0 0 0 31W * ?", "0 0 0 30W * ?", "0 0 0 ? * 1#6")) {
            assertRefused(
                    send("POST", "/api/v1/cron/validate", "{\"expression\":\"" + expression + "\"}"), "expression");
            assertRefused(
                    send(
                            "POST",
                            "/api/v1/schedules",
                            "{\"name\":\"n\",\"trigger\":{\"type\":\"cron\",\"expression\":\"" + expression
                                    + "\"},\"job\":{\"jobType\":\"noop\"}}"),
                    "trigger.expression");
        }
    }

    @Test
    void json_is_read_strictly_on_every_endpoint() {
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\"} trailing"), "body");
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\"}{\"jobType\":\"noop\"}"), "body");
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"nope\",\"jobType\":\"noop\"}"), "jobType");
        String register = "{\"app\":\"a\",\"address\":\"http://127.0.0.1:1\",\"jobTypes\":[\"t\"],\"capacity\":";
        assertRefused(send("POST", "/api/v1/workers/register", register + "1.5}"), "capacity");
        assertRefused(send("POST", "/api/v1/workers/register", register + "\"2\"}"), "capacity");
        assertRefused(send("POST", "/api/v1/workers/register", register + "2,\"colour\":\"red\"}"), "colour");
        assertRefused(send("POST", "/api/v1/workers/register", "[1,2"), "body");
        assertRefused(
                send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"priority\":1" + "0".repeat(200) + "}"), "body");
        assertThat(node.api.get("/api/v1/workers").body().path("workers")).isEmpty();
    }

    @Test
    void handler_params_are_checked_at_submit() {
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"http\"}"), "params.url");
        assertRefused(send("POST", "/api/v1/jobs", "{\"jobType\":\"http\",\"params\":{\"url\":5}}"), "params.url");
        assertRefused(
                send("POST", "/api/v1/jobs", "{\"jobType\":\"http\",\"params\":{\"url\":\"ftp://127.0.0.1/x\"}}"),
                "params.url");
        assertRefused(
                send(
                        "POST",
                        "/api/v1/schedules",
                        "{\"name\":\"n\",\"trigger\":{\"type\":\"cron\",\"expression\":\"0 0 0 1 1 ?\"},"
                                + "\"job\":{\"jobType\":\"http\",\"params\":{\"url\":\"x\"}}}"),
                "job.params.url");
        Raw fine = send("POST", "/api/v1/jobs", "{\"jobType\":\"http\",\"params\":{\"url\":\"http://127.0.0.1:1/x\"}}");
        assertThat(fine.status()).as(fine.body()).isEqualTo(201);
    }

    @Test
    void a_job_bound_to_an_app_is_refused_a_type_only_the_nodes_run() {
        assertRefused(
                send("POST", "/api/v1/jobs", "{\"jobType\":\"noop\",\"executorApp\":\"some-app\"}"), "executorApp");
        assertRefused(
                send(
                        "POST",
                        "/api/v1/schedules",
                        "{\"name\":\"n\",\"trigger\":{\"type\":\"cron\",\"expression\":\"0 0 0 1 1 ?\"},"
                                + "\"job\":{\"jobType\":\"noop\",\"executorApp\":\"some-app\"}}"),
                "job.executorApp");
    }

    @Test
    void a_job_for_an_executor_app_without_workers_is_given_up_with_its_reason_recorded() {
        // a type some other app's worker runs: bound to an app with none, the job waits for one
        var other = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"other-app\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"ghost-type\"],"
                        + "\"capacity\":1}");
        assertThat(other.status()).as(other.body().toString()).isEqualTo(201);
        String job = node.api.submit("{\"jobType\":\"ghost-type\",\"executorApp\":\"ghost-app\"}");
        JsonNode given = node.api.awaitStatus(job, "CANCELED");
        // the job itself says why, as its history does
        assertThat(given.path("lastError").asText())
                .startsWith("given up by the scheduler: no worker of executorApp 'ghost-app'");
        assertThat(node.api
                        .get("/api/v1/jobs/" + job + "/history?asOf=" + java.time.Instant.now())
                        .body()
                        .at("/state/lastError")
                        .asText())
                .isEqualTo(given.path("lastError").asText());
        JsonNode history = node.api.get("/api/v1/jobs/" + job + "/history").body();
        assertThat(history.toString())
                .contains("JobCanceled")
                .contains("ghost-app")
                .contains("no-worker-timeout");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + other.text("workerId"));
    }

    @Test
    void a_job_of_a_type_whose_workers_all_left_is_given_up_with_its_reason_recorded() throws Exception {
        ScanDueJobs scan = node.pauseJobScan();
        String job;
        try {
            var worker = node.api.post(
                    "/api/v1/workers/register",
                    "{\"app\":\"leaving-app\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"leaving-type\"],"
                            + "\"capacity\":1}");
            assertThat(worker.status()).as(worker.body().toString()).isEqualTo(201);
            // not bound to an app: any worker of its namespace with its type could run it, and none is left
            job = node.api.submit("{\"jobType\":\"leaving-type\"}");
            node.jdbc().update("DELETE FROM workers WHERE worker_id = ?", worker.text("workerId"));
        } finally {
            scan.resumeScanning();
        }
        node.api.awaitStatus(job, "CANCELED");
        JsonNode history = node.api.get("/api/v1/jobs/" + job + "/history").body();
        assertThat(history.toString())
                .contains("JobCanceled")
                .contains("no node runs job type 'leaving-type'")
                .contains("no-worker-timeout");
    }

    @Test
    void edges_answer_problem_json_never_500_or_html() {
        String job = node.api.submit("{\"jobType\":\"noop\"}");
        assertRefused(send("GET", "/api/v1/jobs/" + job + "/history?asOf=%2B1000000000-01-01T00:00:00Z", null), "asOf");
        for (String path : List.of("/api/v1/jobs/%00", "/api/v1/jobs/%FF%FE", "/api/v1/jobs/" + "x".repeat(9000))) {
            Raw answer = send("GET", path, null);
            assertThat(answer.status())
                    .as(path.substring(0, Math.min(20, path.length())))
                    .isBetween(400, 499);
            assertThat(answer.contentType()).as(answer.body()).startsWith("application/problem+json");
            assertThat(answer.body())
                    .doesNotContain("<html")
                    .doesNotContain("java.")
                    .doesNotContain("io.axscheduler");
        }
        Raw negative = send(
                "POST",
                "/api/v1/workers/callbacks",
                "{\"workerId\":\"w\",\"jobId\":\"j\",\"attempt\":1,\"shardIndex\":0,\"succeeded\":true,"
                        + "\"durationMs\":-5}");
        assertRefused(negative, "durationMs");
    }

    @Test
    void an_unknown_query_parameter_is_named_not_ignored() {
        String job = node.api.submit("{\"jobType\":\"noop\"}");
        // a misspelt filter listed every job as if it were the filtered list
        Raw misspelt = send("GET", "/api/v1/jobs?stauts=FAILED", null);
        assertRefused(misspelt, "stauts");
        assertThat(misspelt.body()).contains("status");
        assertRefused(send("GET", "/api/v1/schedules?state=ACTIVE&nmae=x", null), "nmae");
        assertRefused(send("GET", "/api/v1/jobs/" + job + "?asOf=2026-01-01T00:00:00Z", null), "asOf");
        assertRefused(send("POST", "/api/v1/jobs?dryRun=true", "{\"jobType\":\"noop\"}"), "dryRun");
        assertRefused(send("GET", "/api/v1/jobs?%73tauts=1", null), "stauts");
        // a parameter given twice is named as such, not as "1,500" being no number
        Raw twice = send("GET", "/api/v1/jobs?size=1&%73ize=500", null);
        assertRefused(twice, "size");
        assertThat(twice.body()).contains("appears more than once");
        // the known ones, encoded or not, and an empty pair
        assertThat(send("GET", "/api/v1/jobs?status=SUCCEEDED&&%73ize=5", null).status())
                .isEqualTo(200);
        assertThat(send("GET", "/api/v1/jobs/" + job + "/history?asOf=" + java.time.Instant.now(), null)
                        .status())
                .isEqualTo(200);
    }

    private static void assertRefused(Raw answer, String field) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.fields()).as(answer.body()).contains(field);
        assertThat(answer.body())
                .doesNotContain("java.")
                .doesNotContain("io.axscheduler")
                .doesNotContain("`");
    }

    private static String nested(int depth) {
        return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    }

    private static String quote(String s) {
        try {
            return Api.JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A POST whose body is sent in chunks, its length not told. */
    static HttpResponse<String> postChunked(String path, String body) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        node.api
                                .authorized(
                                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.api.port + path)))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                                        body.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    static Raw send(String method, String path, String body) {
        try {
            HttpRequest request = node.api
                    .authorized(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.api.port + path)))
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Raw(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
        } catch (Exception e) {
            throw new AssertionError(method + " " + path, e);
        }
    }
}
