package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Two nodes on one database fire a schedule: every fire time makes exactly one job, never two, never none. */
class ScheduleTwoNodesIT {

    static Node a;
    static Node b;

    @BeforeAll
    static void start() {
        String db = TestDatabase.freshDatabase("schedule_two_nodes");
        a = Node.start(db, "node-a");
        b = Node.start(db, "node-b");
    }

    @AfterAll
    static void stop() {
        if (b != null) b.close();
        if (a != null) a.close();
    }

    @Test
    void a_schedule_firing_every_second_on_two_nodes_makes_exactly_one_job_per_fire_time() throws Exception {
        String id = ScheduleHttp.create(a.api, """
                {"name":"every-second","trigger":{"type":"cron","expression":"* * * * * ?"},"job":{"jobType":"count"}}""");
        JdbcTemplate jdbc = a.jdbc();
        Await.until(Duration.ofSeconds(30), () -> jobsOf(jdbc, id) >= 10, () -> jobsOf(jdbc, id) + " jobs");
        assertThat(b.api.post("/api/v1/schedules/" + id + "/pause", "{}").status())
                .isEqualTo(200);
        // fires made ahead of their time before the pause still land: wait until the fire count and the jobs agree
        Await.until(
                Duration.ofSeconds(10),
                () -> b.api.get("/api/v1/schedules/" + id)
                                .body()
                                .path("fireCount")
                                .asInt()
                        == jobsOf(jdbc, id),
                () -> jobsOf(jdbc, id) + " jobs, "
                        + b.api.get("/api/v1/schedules/" + id).body());

        List<Map<String, Object>> jobs =
                jdbc.queryForList("SELECT job_key, run_at FROM job_queue WHERE schedule_id = ? ORDER BY run_at", id);
        assertThat(jobs.size()).isGreaterThanOrEqualTo(10);
        assertThat(new HashSet<>(jobs.stream().map(j -> j.get("job_key")).toList()))
                .hasSize(jobs.size());
        for (int i = 1; i < jobs.size(); i++) {
            long gap = ((Number) jobs.get(i).get("run_at")).longValue()
                    - ((Number) jobs.get(i - 1).get("run_at")).longValue();
            assertThat(gap).as("gap between fire %d and %d", i - 1, i).isEqualTo(1_000);
        }
        Integer fired = jdbc.queryForObject(
                "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                        + " AND payloadType LIKE '%ScheduleFired'",
                Integer.class, id);
        assertThat(fired).isEqualTo(jobs.size());
        var listed = a.api.get("/api/v1/jobs?scheduleId=" + id + "&size=500");
        assertThat(listed.body().path("total").asInt()).isEqualTo(jobs.size());
        System.out.println("jobs run by node: "
                + jdbc.queryForList("SELECT node, COUNT(*) n FROM job_queue WHERE schedule_id = ? GROUP BY node", id));

        var view = b.api.get("/api/v1/schedules/" + id);
        assertThat(view.status()).isEqualTo(200);
        assertThat(view.body().path("paused").asBoolean()).isTrue();
        assertThat(view.body().path("fireCount").asInt()).isEqualTo(jobs.size());
        assertThat(view.body().path("lastJobId").asText()).isNotBlank();
        Await.until(
                Duration.ofSeconds(10),
                () -> "SUCCEEDED"
                        .equals(b.api.get("/api/v1/schedules/" + id)
                                .body()
                                .path("lastJobStatus")
                                .asText()),
                () -> b.api.get("/api/v1/schedules/" + id).body().toString());
        // each job's handler was told the fire time it was made for, and its schedule
        List<Map<String, Object>> succeeded = jdbc.queryForList(
                "SELECT job_id, run_at FROM job_queue WHERE schedule_id = ? AND status = 'SUCCEEDED'", id);
        assertThat(succeeded).isNotEmpty();
        for (Map<String, Object> job : succeeded) {
            assertThat(CountingJobHandler.scheduledFireTimes.get((String) job.get("job_id")))
                    .isEqualTo(java.time.Instant.ofEpochMilli(((Number) job.get("run_at")).longValue()));
            assertThat(CountingJobHandler.scheduleIds.get((String) job.get("job_id")))
                    .isEqualTo(id);
        }
    }

    @Test
    void operations_pause_resume_trigger_update_delete_and_history_work_over_http() {
        String id = ScheduleHttp.create(a.api, """
                {"name":"ops-yearly","trigger":{"type":"cron","expression":"0 0 0 1 1 ?","timezone":"Europe/Berlin"},
                 "job":{"jobType":"noop"},"misfirePolicy":"SKIP","overlapPolicy":"QUEUE"}""");
        var triggered = b.api.post("/api/v1/schedules/" + id + "/trigger", "{}");
        assertThat(triggered.status()).isEqualTo(201);
        String jobId = triggered.text("jobId");
        Await.until(
                Duration.ofSeconds(10),
                () -> "SUCCEEDED".equals(a.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> a.api.get("/api/v1/jobs/" + jobId).body().toString());
        assertThat(a.api.get("/api/v1/jobs/" + jobId).text("scheduleId")).isEqualTo(id);

        var updated = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, """
                {"name":"ops-daily","trigger":{"type":"cron","expression":"0 5 1 * * ?","timezone":"Asia/Shanghai"},"job":{"jobType":"noop"}}""");
        assertThat(updated.status()).isEqualTo(200);
        assertThat(updated.body().path("nextFireTimes")).hasSize(5);
        assertThat(updated.body().path("nextFireTimes").get(0).asText()).endsWith("T17:05:00.000Z");
        assertThat(a.api.get("/api/v1/schedules?name=ops-daily")
                        .body()
                        .path("total")
                        .asInt())
                .isEqualTo(1);

        assertThat(a.api.post("/api/v1/schedules/" + id + "/pause", "{}")
                        .body()
                        .path("state")
                        .asText())
                .isEqualTo("PAUSED");
        assertThat(a.api.get("/api/v1/schedules?state=PAUSED")
                        .body()
                        .path("items")
                        .toString())
                .contains(id);
        assertThat(a.api.post("/api/v1/schedules/" + id + "/resume", "{}")
                        .body()
                        .path("state")
                        .asText())
                .isEqualTo("ACTIVE");
        assertThat(ScheduleHttp.delete(a.api, "/api/v1/schedules/" + id)
                        .body()
                        .path("state")
                        .asText())
                .isEqualTo("DELETED");
        var pauseDeleted = a.api.post("/api/v1/schedules/" + id + "/pause", "{}");
        assertThat(pauseDeleted.status()).isEqualTo(409);
        assertThat(pauseDeleted.contentType()).contains("application/problem+json");
        assertThat(a.api.post("/api/v1/schedules/" + id + "/trigger", "{}").status())
                .isEqualTo(409);

        var history = b.api.get("/api/v1/schedules/" + id + "/history");
        assertThat(history.status()).isEqualTo(200);
        List<String> types = new java.util.ArrayList<>();
        history.body().path("events").forEach(e -> types.add(e.path("type").asText()));
        assertThat(types)
                .containsExactly(
                        "ScheduleCreated",
                        "ScheduleFired",
                        "ScheduleUpdated",
                        "SchedulePaused",
                        "ScheduleResumed",
                        "ScheduleDeleted");

        assertThat(a.api.get("/api/v1/schedules/no-such-schedule").status()).isEqualTo(404);
        assertThat(a.api.post("/api/v1/schedules/no-such-schedule/pause", "{}").status())
                .isEqualTo(404);
        assertThat(a.api.get("/api/v1/schedules/no-such-schedule/history").status())
                .isEqualTo(404);
    }

    @Test
    void an_edit_that_keeps_the_trigger_keeps_the_fire_times_and_a_new_trigger_counts_from_the_edit() throws Exception {
        String body = """
                {"name":"%s","trigger":{"type":"fixedRate","intervalMs":3600000},"job":{"jobType":"noop"}}""";
        String id = ScheduleHttp.create(a.api, body.formatted("rate-kept"));
        String next = a.api.get("/api/v1/schedules/" + id).text("nextFireTime");
        Thread.sleep(1_500);

        // a rename (on the other node): the hourly phase stays, the next fire is not put off by the edit
        var renamed = ScheduleHttp.put(b.api, "/api/v1/schedules/" + id, body.formatted("rate-renamed"));
        assertThat(renamed.status()).as(renamed.body().toString()).isEqualTo(200);
        assertThat(renamed.body().path("nextFireTimes").get(0).asText()).isEqualTo(next);
        assertThat(Instant.parse(renamed.body().path("nextFireTimes").get(1).asText()))
                .isEqualTo(Instant.parse(next).plusSeconds(3600));
        Await.until(
                Duration.ofSeconds(10),
                () -> "rate-renamed".equals(a.api.get("/api/v1/schedules/" + id).text("name")),
                () -> a.api.get("/api/v1/schedules/" + id).body().toString());
        assertThat(a.api.get("/api/v1/schedules/" + id).text("nextFireTime")).isEqualTo(next);

        // a schedule read and sent back as it is (its editable fields) is accepted and changes nothing
        var policy = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, """
                {"name":"rate-renamed","trigger":{"type":"fixedRate","intervalMs":3600000},
                 "job":{"jobType":"noop","maxRetries":2,"backoff":{"delaysMs":[1000,5000]}}}""");
        assertThat(policy.status()).as(policy.body().toString()).isEqualTo(200);
        JsonNode read = a.api.get("/api/v1/schedules/" + id).body();
        com.fasterxml.jackson.databind.node.ObjectNode sentBack = Api.JSON.createObjectNode();
        for (String field : List.of("name", "trigger", "job", "misfirePolicy", "overlapPolicy", "namespace"))
            sentBack.set(field, read.path(field));
        int eventsBefore = a.api.get("/api/v1/schedules/" + id + "/history")
                .body()
                .path("events")
                .size();
        var roundTrip = ScheduleHttp.put(b.api, "/api/v1/schedules/" + id, sentBack.toString());
        assertThat(roundTrip.status()).as(sentBack + " → " + roundTrip.body()).isEqualTo(200);
        assertThat(roundTrip.body().path("nextFireTimes").get(0).asText()).isEqualTo(next);
        // and writes nothing: no ScheduleUpdated with nothing in it, the schedule's updatedAt as it was
        assertThat(a.api.get("/api/v1/schedules/" + id + "/history")
                        .body()
                        .path("events")
                        .size())
                .isEqualTo(eventsBefore);
        assertThat(a.api.get("/api/v1/schedules/" + id).body()).isEqualTo(read);
        // one field changed is an edit again
        sentBack.put("overlapPolicy", "QUEUE".equals(read.path("overlapPolicy").asText()) ? "ALLOW" : "QUEUE");
        assertThat(ScheduleHttp.put(b.api, "/api/v1/schedules/" + id, sentBack.toString())
                        .status())
                .isEqualTo(200);
        assertThat(a.api.get("/api/v1/schedules/" + id + "/history")
                        .body()
                        .path("events")
                        .size())
                .isEqualTo(eventsBefore + 1);

        // a new interval counts from the edit
        Instant before = Instant.now();
        var faster = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, """
                {"name":"rate-renamed","trigger":{"type":"fixedRate","intervalMs":1800000},"job":{"jobType":"noop"}}""");
        assertThat(faster.status()).isEqualTo(200);
        assertThat(Instant.parse(faster.body().path("nextFireTimes").get(0).asText()))
                .isBetween(before.plusSeconds(1800 - 5), before.plusSeconds(1800 + 5));
    }

    @Test
    void a_schedule_key_sent_again_with_another_request_is_refused_and_writes_nothing() {
        var first = a.api.post("/api/v1/schedules", """
                {"name":"report","scheduleKey":"weekly-report",
                 "trigger":{"type":"cron","expression":"0 0 8 ? * MON","timezone":"Europe/Berlin"},
                 "job":{"jobType":"noop","params":{"to":"ops"}}}""");
        assertThat(first.status()).as(first.body().toString()).isEqualTo(201);
        String id = first.text("scheduleId");
        // the same body with its fields in another order, on the other node: the first schedule
        var same = b.api.post("/api/v1/schedules", """
                {"job":{"params":{"to":"ops"},"jobType":"noop"},"scheduleKey":"weekly-report",
                 "trigger":{"timezone":"Europe/Berlin","type":"cron","expression":"0 0 8 ? * MON"},"name":"report"}""");
        assertThat(same.status()).as(same.body().toString()).isEqualTo(200);
        assertThat(same.text("scheduleId")).isEqualTo(id);

        long events = a.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class);
        String otherBody = """
                {"name":"report","scheduleKey":"weekly-report",
                 "trigger":{"type":"cron","expression":"0 0 9 ? * MON","timezone":"Europe/Berlin"},
                 "job":{"jobType":"noop","params":{"to":"ops"}}}""";
        var other = b.api.post("/api/v1/schedules", otherBody);
        assertThat(other.status()).as(other.body().toString()).isEqualTo(422);
        assertThat(other.body().path("errors").get(0).path("field").asText()).isEqualTo("scheduleKey");
        assertThat(other.text("scheduleId")).isEqualTo(id);
        assertThat(other.body().path("errors").get(0).path("message").asText())
                .contains("different request")
                .contains(id);
        var batch = a.api.post("/api/v1/schedules/batch", """
                {"schedules":[{"name":"fresh","trigger":{"type":"fixedRate","intervalMs":3600000},
                               "job":{"jobType":"noop"}},%s]}""".formatted(otherBody));
        assertThat(batch.status()).as(batch.body().toString()).isEqualTo(422);
        assertThat(batch.body().path("errors").get(0).path("field").asText()).isEqualTo("schedules[1].scheduleKey");
        assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class))
                .isEqualTo(events);
        assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM schedules WHERE name = 'fresh'", Integer.class))
                .isZero();
    }

    @Test
    void a_schedule_key_makes_one_schedule_however_often_and_wherever_the_create_is_sent() throws Exception {
        String body = """
                {"name":"keyed","scheduleKey":"%s","trigger":{"type":"fixedRate","intervalMs":3600000},
                 "job":{"jobType":"noop"}}""";
        var first = a.api.post("/api/v1/schedules", body.formatted("nightly-bill"));
        assertThat(first.status()).as(first.body().toString()).isEqualTo(201);
        assertThat(first.body().path("created").asBoolean()).isTrue();
        String id = first.text("scheduleId");
        var again = b.api.post("/api/v1/schedules", body.formatted("nightly-bill"));
        assertThat(again.status()).as(again.body().toString()).isEqualTo(200);
        assertThat(again.body().path("created").asBoolean()).isFalse();
        assertThat(again.text("scheduleId")).isEqualTo(id);
        assertThat(again.body().path("state").asText()).isEqualTo("ACTIVE");

        // twelve at once over both nodes: one schedule, every answer naming it
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(12);
        List<java.util.concurrent.Future<Api.Response>> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Node node = i % 2 == 0 ? a : b;
            sent.add(pool.submit(() -> node.api.post("/api/v1/schedules", body.formatted("raced"))));
        }
        java.util.Set<String> ids = new HashSet<>();
        int made = 0;
        for (var f : sent) {
            Api.Response r = f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(r.status()).as(r.body().toString()).isIn(200, 201);
            if (r.status() == 201) made++;
            ids.add(r.text("scheduleId"));
        }
        pool.shutdown();
        assertThat(made).isEqualTo(1);
        assertThat(ids).hasSize(1);
        assertThat(a.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM schedules WHERE schedule_id IN (SELECT schedule_id FROM"
                                        + " schedule_keys WHERE schedule_key = 'raced')",
                                Integer.class))
                .isEqualTo(1);
        assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM schedules WHERE name = 'keyed'", Integer.class))
                .isEqualTo(2);

        // in a batch: a key taken before and one taken earlier in the batch make nothing
        var batch = b.api.post("/api/v1/schedules/batch", """
                {"schedules":[%s,%s,%s]}""".formatted(
                        body.formatted("nightly-bill"), body.formatted("batch-new"), body.formatted("batch-new")));
        assertThat(batch.status()).as(batch.body().toString()).isEqualTo(201);
        JsonNode results = batch.body().path("results");
        assertThat(results.get(0).path("scheduleId").asText()).isEqualTo(id);
        assertThat(results.get(0).path("created").asBoolean()).isFalse();
        assertThat(results.get(0).path("state").asText()).isEqualTo("ACTIVE");
        assertThat(results.get(1).path("created").asBoolean()).isTrue();
        assertThat(results.get(2).path("created").asBoolean()).isFalse();
        assertThat(results.get(2).path("scheduleId").asText())
                .isEqualTo(results.get(1).path("scheduleId").asText());
        assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM schedules WHERE name = 'keyed'", Integer.class))
                .isEqualTo(3);

        // the creating body may come again as an update; another schedule's key may not
        var update = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, body.formatted("nightly-bill"));
        assertThat(update.status()).as(update.body().toString()).isEqualTo(200);
        var foreign = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, body.formatted("raced"));
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.body().toString()).contains("scheduleKey").contains("is not this schedule's key");
        // byte for byte: another case, or a trailing space, is another key
        var otherCase = a.api.post("/api/v1/schedules", body.formatted("Nightly-Bill"));
        assertThat(otherCase.status()).as(otherCase.body().toString()).isEqualTo(201);
        var spaced = a.api.post("/api/v1/schedules", body.formatted("nightly-bill "));
        assertThat(spaced.status()).as(spaced.body().toString()).isEqualTo(201);
        var bad = a.api.post("/api/v1/schedules", body.formatted("tab\\there"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().toString()).contains("scheduleKey");

        // a key outlives its schedule's delete: the answer says the schedule it made is deleted
        ScheduleHttp.delete(a.api, "/api/v1/schedules/" + id);
        var afterDelete = b.api.post("/api/v1/schedules", body.formatted("nightly-bill"));
        assertThat(afterDelete.status()).isEqualTo(200);
        assertThat(afterDelete.body().path("state").asText()).isEqualTo("DELETED");
    }

    private static void awaitFirstFire(String id) {
        Await.until(
                Duration.ofSeconds(20),
                () -> a.api.get("/api/v1/schedules/" + id)
                                .body()
                                .path("fireCount")
                                .asInt()
                        == 1,
                () -> a.api.get("/api/v1/schedules/" + id).body().toString());
    }

    /** A spent schedule: completed, its state still ACTIVE, no next fire time. */
    private static void assertSpent(JsonNode read) {
        assertThat(read.path("completed").asBoolean()).as(read.toString()).isTrue();
        assertThat(read.path("state").asText()).isEqualTo("ACTIVE");
        assertThat(read.path("nextFireTime").isNull()).isTrue();
    }

    @Test
    void a_cron_schedule_past_its_last_fire_time_is_completed_and_says_it_fires_no_more() {
        // far enough ahead that a slow create still finds its one time in the future
        java.time.ZonedDateTime at =
                Instant.now().plusSeconds(6).truncatedTo(ChronoUnit.SECONDS).atZone(java.time.ZoneOffset.UTC);
        String expression = "%d %d %d %d %d ? %d"
                .formatted(
                        at.getSecond(),
                        at.getMinute(),
                        at.getHour(),
                        at.getDayOfMonth(),
                        at.getMonthValue(),
                        at.getYear());
        String id = ScheduleHttp.create(a.api, """
                {"name":"last-cron","trigger":{"type":"cron","expression":"%s"},"job":{"jobType":"noop"}}""".formatted(expression));
        assertThat(a.api.get("/api/v1/schedules/" + id).body().path("completed").asBoolean())
                .isFalse();
        awaitFirstFire(id);
        JsonNode read = b.api.get("/api/v1/schedules/" + id).body();
        assertSpent(read);
        JsonNode explained = b.api.get("/api/v1/schedules/" + id + "/explain?at="
                        + at.toInstant().plusSeconds(5))
                .body();
        assertThat(explained.toString()).as(explained.toString()).contains("the schedule fires no more by itself");
        ScheduleHttp.delete(a.api, "/api/v1/schedules/" + id);
    }

    @Test
    void a_once_schedule_that_fired_can_be_read_edited_and_sent_back() throws Exception {
        Instant at = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
        String id = ScheduleHttp.create(a.api, """
                {"name":"once-rt","trigger":{"type":"once","at":"%s"},"job":{"jobType":"noop"}}""".formatted(at));
        awaitFirstFire(id);
        JsonNode read = a.api.get("/api/v1/schedules/" + id).body();
        // its one time is past: it fires no more by itself, and says so, while its state stays ACTIVE
        assertSpent(read);
        com.fasterxml.jackson.databind.node.ObjectNode sentBack = Api.JSON.createObjectNode();
        for (String field : List.of("name", "trigger", "job", "misfirePolicy", "overlapPolicy", "namespace"))
            sentBack.set(field, read.path(field));
        sentBack.put("name", "once-rt-renamed");
        var renamed = ScheduleHttp.put(b.api, "/api/v1/schedules/" + id, sentBack.toString());
        assertThat(renamed.status()).as(renamed.body().toString()).isEqualTo(200);
        assertThat(b.api.get("/api/v1/schedules/" + id).body().path("completed").asBoolean())
                .as("renamed, still spent")
                .isTrue();
        // a new time in the past is still refused
        sentBack.set("trigger", Api.JSON.readTree("{\"type\":\"once\",\"at\":\"" + at.minusSeconds(60) + "\"}"));
        var past = ScheduleHttp.put(b.api, "/api/v1/schedules/" + id, sentBack.toString());
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.body().toString()).contains("trigger.at");
        ScheduleHttp.delete(a.api, "/api/v1/schedules/" + id);
    }

    @Test
    void an_edit_of_a_paused_schedule_whose_kept_time_has_passed_previews_from_now() throws Exception {
        String body = """
                {"name":"%s","trigger":{"type":"fixedRate","intervalMs":2000},"job":{"jobType":"noop"}}""";
        String id = ScheduleHttp.create(a.api, body.formatted("paused-edit"));
        assertThat(a.api.post("/api/v1/schedules/" + id + "/pause", "{}").status())
                .isEqualTo(200);
        Thread.sleep(3_000);
        Instant kept = Instant.parse(a.api.get("/api/v1/schedules/" + id).text("nextFireTime"));
        Instant before = Instant.now();
        var renamed = ScheduleHttp.put(a.api, "/api/v1/schedules/" + id, body.formatted("paused-edit-2"));
        assertThat(renamed.status()).as(renamed.body().toString()).isEqualTo(200);
        assertThat(renamed.body().path("nextFireTimes")).isNotEmpty();
        for (JsonNode time : renamed.body().path("nextFireTimes")) {
            Instant t = Instant.parse(time.asText());
            assertThat(t).as(renamed.body().toString()).isAfter(before);
            // in the rate's kept phase, not counted from the edit
            assertThat(Duration.between(kept, t).toMillis() % 2000).isZero();
        }
        ScheduleHttp.delete(a.api, "/api/v1/schedules/" + id);
    }

    @Test
    void a_fixed_rate_with_start_at_fires_first_exactly_then_and_a_batch_lands_whole_or_not_at_all() {
        Instant startAt =
                Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS).plusMillis(250);
        var made = a.api.post("/api/v1/schedules/batch", """
                {"schedules":[
                  {"name":"phased-a","trigger":{"type":"fixedRate","intervalMs":60000,"startAt":"%s"},"job":{"jobType":"noop"}},
                  {"name":"phased-b","trigger":{"type":"fixedRate","intervalMs":60000,"startAt":"%s"},"job":{"jobType":"noop"}}]}""".formatted(startAt, startAt.plusMillis(500)));
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        JsonNode first = made.body().path("results").get(0);
        assertThat(first.path("nextFireTime").asText()).isEqualTo(startAt.toString());
        String id = first.path("scheduleId").asText();
        JdbcTemplate jdbc = a.jdbc();
        Await.until(
                Duration.ofSeconds(20),
                () -> "SUCCEEDED"
                        .equals(b.api.get("/api/v1/schedules/" + id)
                                .body()
                                .path("lastJobStatus")
                                .asText()),
                () -> b.api.get("/api/v1/schedules/" + id).body().toString());
        assertThat(jdbc.queryForList("SELECT run_at FROM job_queue WHERE schedule_id = ?", Long.class, id))
                .containsExactly(startAt.toEpochMilli());
        assertThat(b.api.get("/api/v1/schedules/" + id)
                        .body()
                        .path("nextFireTime")
                        .asText())
                .isEqualTo(startAt.plusSeconds(60).toString());

        assertThat(field(a.api.post("/api/v1/schedules/batch", """
                {"schedules":[{"name":"never-made","trigger":{"type":"fixedRate","intervalMs":60000},"job":{"jobType":"noop"}},
                              {"name":"never-made","trigger":{"type":"fixedRate","intervalMs":60000,"startAt":"soon"},"job":{"jobType":"noop"}}]}"""))).isEqualTo("schedules[1].trigger.startAt");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM schedules WHERE name = 'never-made'", Integer.class))
                .isZero();
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"cron","expression":"0 * * * * ?","startAt":"2030-01-01T00:00:00Z"},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.startAt");
    }

    @Test
    void bad_requests_are_refused_naming_the_field() {
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"cron","expression":"0 61 * * * ?"},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.expression");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"cron","expression":"0 0 * * * ?","timezone":"Mars/Base"},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.timezone");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"weekly"},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.type");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"fixedRate","intervalMs":-1},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.intervalMs");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"fixedRate","intervalMs":100},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.intervalMs");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"once","at":"2001-01-01T00:00:00Z"},"job":{"jobType":"noop"}}"""))).isEqualTo("trigger.at");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"fixedRate","intervalMs":5000},"job":{"jobType":"noop"},"misfirePolicy":"LATER"}"""))).isEqualTo("misfirePolicy");
        assertThat(field(a.api.post("/api/v1/schedules", """
                {"trigger":{"type":"fixedRate","intervalMs":5000},"job":{"jobType":"nope"}}"""))).isEqualTo("job.jobType");

        var valid = a.api.post("/api/v1/cron/validate", """
                {"expression":"0 */5 * * * ?","timezone":"Asia/Shanghai","count":3}""");
        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.body().path("valid").asBoolean()).isTrue();
        assertThat(valid.text("description")).isEqualTo("every 5 minutes");
        assertThat(valid.body().path("nextFireTimes")).hasSize(3);
        assertThat(valid.body().path("firesPerDay").asLong()).isEqualTo(288);
        assertThat(a.api.post("/api/v1/cron/validate", "{\"expression\":\"*/5 * * * *\",\"dialect\":\"unix\"}")
                        .status())
                .isEqualTo(200);
        assertThat(field(a.api.post("/api/v1/cron/validate", "{\"expression\":\"*/5 * * * *\"}")))
                .isEqualTo("expression");
        assertThat(field(a.api.post(
                        "/api/v1/cron/validate", "{\"expression\":\"0 0 * * * ?\",\"timezone\":\"Nowhere\"}")))
                .isEqualTo("timezone");
    }

    private static String field(Api.Response r) {
        assertThat(r.status()).as(r.body().toString()).isEqualTo(400);
        assertThat(r.contentType()).contains("application/problem+json");
        return r.body().path("errors").get(0).path("field").asText();
    }

    private static int jobsOf(JdbcTemplate jdbc, String scheduleId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, scheduleId);
    }
}
