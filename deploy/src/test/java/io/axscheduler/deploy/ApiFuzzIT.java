package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A property-based fuzzer of the whole HTTP API on a real node and database: requests to every endpoint with bodies,
 * paths, query strings and headers that are valid, on a boundary, or hostile (nesting far past the limit, numbers of
 * hundreds of digits, wrong types, a field twice, lone surrogates and bytes that are not UTF-8, data after the body).
 * Whatever it sends: never a 5xx; every 4xx is problem+json, a 400 names a field; a refusal writes nothing (the
 * event store and the read models keep their row counts); and every accepted write reads back. The seed is fixed,
 * so a failure replays; the tries keep the run to about a minute.
 */
class ApiFuzzIT {

    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String UNKNOWN_ID = "01a2337d-6485-79ac-afde-c5cd70b5e94e";

    private static Node node;
    private static String job;
    private static String schedule;

    /** One request as sent: the body as raw bytes, so it may be anything but UTF-8 JSON. */
    record Request(String method, String path, Map<String, String> headers, byte[] body) {
        @Override
        public String toString() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return method + " " + path + " " + headers + " "
                    + (text.length() > 300 ? text.substring(0, 300) + "…(" + text.length() + ")" : text);
        }
    }

    @BeforeContainer
    static void start() {
        // nothing claims, fires, expires or gives up by itself: row counts move only by the requests sent
        node = Node.start(
                TestDatabase.freshDatabase("api_fuzz"),
                "node-fuzz",
                Map.of(
                        "ax.scheduler.scan.enabled", "false",
                        "ax.scheduler.remote.no-worker-timeout", "366d",
                        "ax.scheduler.workers.missed-heartbeats", "1000000"));
        job = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        schedule = ScheduleHttp.create(node.api, """
                {"name":"fuzz","trigger":{"type":"cron","expression":"0 0 0 1 1 ?"},"job":{"jobType":"noop"}}""");
    }

    @AfterContainer
    static void stop() {
        if (node != null) node.close();
    }

    // random requests, not jqwik's edge cases: combined, those alone would fill every try with the first and last
    // values
    @Property(tries = 600, seed = "20261201", shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
    void no_request_breaks_the_contract(@ForAll("requests") Request request) throws Exception {
        Map<String, Long> before = counts();
        HttpResponse<String> response = send(request);
        int status = response.statusCode();
        String type = response.headers().firstValue("Content-Type").orElse("");
        assertThat(status).as("%s → %s", request, response.body()).isLessThan(500);
        if (status >= 400) {
            assertThat(type).as("%s → %d %s", request, status, response.body()).startsWith("application/problem+json");
            assertThat(response.body())
                    .as(request.toString())
                    .doesNotContain("io.axscheduler")
                    .doesNotContain("java.");
            if (status == 400) {
                JsonNode errors = Api.JSON.readTree(response.body()).path("errors");
                assertThat(errors.isArray() && !errors.isEmpty())
                        .as("a 400 names a field: %s → %s", request, response.body())
                        .isTrue();
                errors.forEach(e -> assertThat(e.path("field").asText()).isNotBlank());
            }
            assertThat(counts()).as("a refused %s wrote nothing", request).isEqualTo(before);
        } else if (status == 201 || (status == 200 && request.method().equals("POST"))) {
            readsBack(request, Api.JSON.readTree(response.body()));
        }
    }

    /** Every job or schedule a write answered with can be read, with its history. */
    private static void readsBack(Request request, JsonNode answer) {
        List<String> paths = new ArrayList<>();
        if (answer.has("jobId"))
            paths.add("/api/v1/jobs/" + answer.path("jobId").asText());
        if (answer.has("scheduleId") && request.path().startsWith("/api/v1/schedules"))
            paths.add("/api/v1/schedules/" + answer.path("scheduleId").asText());
        answer.path("results").forEach(r -> {
            if (r.has("jobId")) paths.add("/api/v1/jobs/" + r.path("jobId").asText());
            if (r.has("scheduleId"))
                paths.add("/api/v1/schedules/" + r.path("scheduleId").asText());
        });
        for (String path : paths) {
            for (String read : List.of(path, path + "/history")) {
                HttpResponse<String> r = send(new Request("GET", read, Map.of(), null));
                assertThat(r.statusCode())
                        .as("%s accepted, then %s → %s", request, read, r.body())
                        .isEqualTo(200);
            }
        }
    }

    @Provide
    Arbitrary<Request> requests() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, post("/api/v1/jobs", jobBody())),
                net.jqwik.api.Tuple.of(2, post("/api/v1/jobs/batch", wrap("jobs", jobBody()))),
                net.jqwik.api.Tuple.of(3, post("/api/v1/schedules", scheduleBody())),
                net.jqwik.api.Tuple.of(1, post("/api/v1/schedules/batch", wrap("schedules", scheduleBody()))),
                net.jqwik.api.Tuple.of(2, put(scheduleBody())),
                net.jqwik.api.Tuple.of(2, post("/api/v1/cron/validate", cronBody())),
                net.jqwik.api.Tuple.of(2, post("/api/v1/workers/register", registerBody())),
                net.jqwik.api.Tuple.of(1, post("/api/v1/workers/callbacks", callbackBody())),
                net.jqwik.api.Tuple.of(3, operatorCommands()),
                net.jqwik.api.Tuple.of(3, reads()),
                net.jqwik.api.Tuple.of(1, refusedWrites()));
    }

    // --- bodies: a valid shape, with hostile values and hostile text around it ---

    private Arbitrary<String> jobBody() {
        Arbitrary<String> fields = Combinators.combine(
                        Arbitraries.of("\"noop\"", "\"sleep\"", "\"http\"", "\"flaky\"", "\"nope\"", "5", "null"),
                        value(),
                        params(),
                        Arbitraries.of("", ",\"priority\":1000", ",\"priority\":1001", ",\"priority\":-1000"),
                        Arbitraries.of(
                                "",
                                ",\"delayMs\":0",
                                ",\"delayMs\":31622400001",
                                ",\"runAt\":\"+1000000000-01-01T00:00:00Z\""),
                        Arbitraries.of("", ",\"executorApp\":\"app\"", ",\"maxRetries\":101", ",\"timeoutMs\":1.5"))
                .as((type, key, params, priority, due, more) -> "{\"jobType\":" + type + ",\"jobKey\":" + key
                        + ",\"params\":" + params + priority + due + more + "}");
        return hostile(fields);
    }

    private Arbitrary<String> scheduleBody() {
        Arbitrary<String> trigger = Arbitraries.of(
                "{\"type\":\"cron\",\"expression\":\"0 0 0 31W * ?\"}",
                "{\"type\":\"cron\",\"expression\":\"0 0 0 ? * 1#6\"}",
                "{\"type\":\"cron\",\"expression\":\"0 0 12 * * ?\",\"timezone\":\"Asia/Shanghai\"}",
                "{\"type\":\"cron\",\"expression\":\"* * * * * ?\"}",
                "{\"type\":\"fixedRate\",\"intervalMs\":60000}",
                "{\"type\":\"fixedRate\",\"intervalMs\":0.5}",
                "{\"type\":\"fixedDelay\",\"delayMs\":-1}",
                "{\"type\":\"once\",\"at\":\"2030-01-01T00:00:00Z\"}",
                "{\"type\":\"once\",\"at\":\"+1000000000-01-01T00:00:00Z\"}",
                "{\"type\":\"nope\"}",
                "[]");
        Arbitrary<String> fields = Combinators.combine(
                        value(),
                        trigger,
                        params(),
                        Arbitraries.of("", ",\"misfirePolicy\":\"SKIP\"", ",\"overlapPolicy\":7"))
                .as((name, t, params, more) -> "{\"name\":" + name + ",\"trigger\":" + t
                        + ",\"job\":{\"jobType\":\"noop\",\"params\":" + params + "}" + more + "}");
        return hostile(fields);
    }

    private Arbitrary<String> cronBody() {
        return hostile(Combinators.combine(
                        Arbitraries.of(
                                "\"0 0 0 31W * ?\"",
                                "\"0 0 0 30W * ?\"",
                                "\"0 0 0 ? * 1#6\"",
                                "\"0 5 1 * * ?\"",
                                "\"*/5 * * * *\"",
                                "\"\"",
                                "12",
                                "\"\\ud800\""),
                        Arbitraries.of(
                                "", ",\"count\":100", ",\"count\":101", ",\"count\":1.5", ",\"dialect\":\"unix\""))
                .as((e, more) -> "{\"expression\":" + e + more + "}"));
    }

    private Arbitrary<String> registerBody() {
        return hostile(Combinators.combine(
                        value(),
                        Arbitraries.of("\"http://127.0.0.1:1\"", "\"ftp://h\"", "5", "\"\""),
                        Arbitraries.of("[\"t\"]", "[]", "\"t\"", "[1]"),
                        Arbitraries.of("1", "0", "1.5", "\"2\"", "99999999999", "-1"))
                .as((app, address, types, capacity) -> "{\"app\":" + app + ",\"address\":" + address + ",\"jobTypes\":"
                        + types + ",\"capacity\":" + capacity + "}"));
    }

    private Arbitrary<String> callbackBody() {
        return hostile(Combinators.combine(
                        value(),
                        Arbitraries.of("-5", "0", "1.5", "\"x\""),
                        Arbitraries.of("\"j\\nWARN forged\"", "\"j\""))
                .as((worker, duration, jobId) -> "{\"workerId\":" + worker + ",\"jobId\":" + jobId
                        + ",\"attempt\":1,\"shardIndex\":0,\"succeeded\":true,\"durationMs\":" + duration + "}"));
    }

    /** {@code {"<field>": [item, item]}} with one or two items. */
    private Arbitrary<String> wrap(String field, Arbitrary<String> item) {
        return item.list()
                .ofMinSize(0)
                .ofMaxSize(2)
                .map(items -> "{\"" + field + "\":[" + String.join(",", items) + "]}");
    }

    /** A scalar or small value of any JSON type, on a boundary or hostile. */
    private Arbitrary<String> value() {
        return Arbitraries.oneOf(
                Arbitraries.of(
                        "\"k\"",
                        "\"K\"",
                        "\"straße\"",
                        "\"strasse\"",
                        "\"k \"",
                        "\"😀\"",
                        "\"\\ud800\"",
                        "\"\\udc00x\"",
                        "\"\"",
                        "\" \"",
                        "null",
                        "true",
                        "0",
                        "-1",
                        "1.5",
                        "1e400",
                        "9".repeat(400),
                        "[]",
                        "{}",
                        "\"" + "x".repeat(300) + "\"",
                        "\"a\\u0000b\"",
                        "\"line\\nbreak\""),
                Arbitraries.strings().ofMaxLength(12).map(ApiFuzzIT::quote));
    }

    /** params: an object, sometimes nested to a depth around and far past the limit. */
    private Arbitrary<String> params() {
        return Arbitraries.oneOf(
                Arbitraries.of(
                        "{}",
                        "{\"url\":\"http://127.0.0.1:1/x\"}",
                        "{\"url\":5}",
                        "{\"ms\":10}",
                        "{\"ms\":1.5}",
                        "[]",
                        "\"p\"",
                        "{\"a\":\"\\ud800\"}"),
                Arbitraries.integers().between(1, 1100).map(ApiFuzzIT::nested),
                value().map(v -> "{\"v\":" + v + "}"));
    }

    /** The body as it is, or with a field twice, trailing data, cut short, or bytes that are not UTF-8. */
    private Arbitrary<String> hostile(Arbitrary<String> body) {
        return Combinators.combine(body, Arbitraries.integers().between(0, 9)).as((b, how) -> switch (how) {
            case 1 -> b.replaceFirst("\\{\"", "{\"jobType\":\"noop\",\"");
            case 2 -> b + " {\"again\":1}";
            case 3 -> b + " trailing";
            case 4 -> b.substring(0, b.length() / 2);
            case 5 -> "[" + b + "]";
            case 6 -> b.replaceFirst("}$", ",\"unknownField\":1}");
            default -> b;
        });
    }

    private Arbitrary<Request> post(String path, Arbitrary<String> body) {
        return Combinators.combine(body, headers(), Arbitraries.integers().between(0, 19))
                .as((b, h, raw) -> new Request("POST", path, h, bytes(b, raw == 0)));
    }

    private Arbitrary<Request> put(Arbitrary<String> body) {
        return Combinators.combine(body, Arbitraries.of(schedulePath(), "/api/v1/schedules/" + UNKNOWN_ID))
                .as((b, path) -> new Request("PUT", path, Map.of("Content-Type", "application/json"), bytes(b, false)));
    }

    private Arbitrary<Request> operatorCommands() {
        return Combinators.combine(
                        Arbitraries.of(
                                jobPath() + "/cancel",
                                jobPath() + "/retry",
                                "/api/v1/jobs/" + UNKNOWN_ID + "/cancel",
                                schedulePath() + "/pause",
                                schedulePath() + "/resume",
                                schedulePath() + "/trigger",
                                "/api/v1/schedules/" + UNKNOWN_ID + "/trigger",
                                "/api/v1/workers/" + UNKNOWN_ID + "/heartbeat"),
                        Arbitraries.of(
                                "",
                                "{}",
                                "{\"reason\":\"r\"}",
                                "{\"reason\":5}",
                                "{\"reason\":\"r\",\"reason\":\"s\"}",
                                "{\"reason\":\"r\"} x",
                                "{\"inFlight\":1.5}"),
                        headers())
                .as((path, body, h) -> new Request("POST", path, h, body.isEmpty() ? null : bytes(body, false)));
    }

    private Arbitrary<Request> reads() {
        return Arbitraries.of(
                        "/api/v1/jobs",
                        "/api/v1/jobs?status=NOPE",
                        "/api/v1/jobs?page=-1",
                        "/api/v1/jobs?size=501",
                        "/api/v1/jobs?size=1.5",
                        "/api/v1/jobs?page=99999999999",
                        jobPath(),
                        jobPath() + "/history",
                        jobPath() + "/history?asOf=%2B1000000000-01-01T00:00:00Z",
                        jobPath() + "/history?asOf=nope",
                        "/api/v1/jobs/" + UNKNOWN_ID,
                        "/api/v1/jobs/%00",
                        "/api/v1/jobs/%FF%FE",
                        "/api/v1/jobs/%E2%80",
                        "/api/v1/jobs/" + "x".repeat(9000),
                        "/api/v1/schedules",
                        "/api/v1/schedules?state=X",
                        schedulePath(),
                        schedulePath() + "/history?page=0&size=500",
                        schedulePath() + "/history?size=501",
                        schedulePath() + "/history?page=-3",
                        "/api/v1/workers",
                        "/api/v1/nothing-here",
                        "/actuator/health",
                        "/api/v1/stats/overview",
                        "/api/v1/stats/overview?from=nope")
                .map(path -> new Request("GET", path, Map.of(), null));
    }

    /** Writes to what does not exist, or of a kind no one may ask for: refused, and nothing moves. */
    private Arbitrary<Request> refusedWrites() {
        return Arbitraries.of(
                new Request("DELETE", "/api/v1/schedules/" + UNKNOWN_ID, Map.of(), null),
                new Request("DELETE", "/api/v1/schedules/%00", Map.of(), null),
                new Request("POST", "/api/v1/admin/projections/nope/rebuild", Map.of(), null),
                new Request(
                        "PATCH", "/api/v1/jobs", Map.of("Content-Type", "application/json"), new byte[] {'{', '}'}));
    }

    private Arbitrary<Map<String, String>> headers() {
        return Arbitraries.of(
                Map.of("Content-Type", "application/json"),
                Map.of("Content-Type", "application/json", "X-Actor", "alice"),
                Map.of("Content-Type", "application/json", "X-Actor", "a".repeat(101)),
                Map.of("Content-Type", "text/plain"),
                Map.of("Content-Type", "application/json; charset=ISO-8859-1"));
    }

    private static String jobPath() {
        return "/api/v1/jobs/" + (job == null ? UNKNOWN_ID : job);
    }

    private static String schedulePath() {
        return "/api/v1/schedules/" + (schedule == null ? UNKNOWN_ID : schedule);
    }

    private static byte[] bytes(String body, boolean notUtf8) {
        byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
        if (!notUtf8 || utf8.length < 4) return utf8;
        utf8[utf8.length / 2] = (byte) 0xFF; // never valid in UTF-8
        return utf8;
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

    /** Rows the API can write, by table: a refusal must leave every one as it was. */
    private static Map<String, Long> counts() {
        return node
                .jdbc()
                .queryForMap(
                        "SELECT (SELECT COUNT(*) FROM DomainEventEntry) events, (SELECT COUNT(*) FROM job_queue) jobs,"
                                + " (SELECT COUNT(*) FROM job_keys) job_keys, (SELECT COUNT(*) FROM schedules) schedules,"
                                + " (SELECT COUNT(*) FROM workers) workers")
                .entrySet()
                .stream()
                .collect(java.util.stream.Collectors.toMap(
                        Map.Entry::getKey,
                        e -> ((Number) e.getValue()).longValue(),
                        (a, b) -> a,
                        java.util.TreeMap::new));
    }

    private static HttpResponse<String> send(Request request) {
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + node.api.port + request.path()))
                    .timeout(Duration.ofSeconds(30))
                    .method(
                            request.method(),
                            request.body() == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(request.body()));
            request.headers().forEach(builder::header);
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(request.toString(), e);
        }
    }
}
