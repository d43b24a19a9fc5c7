package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.axonmysql.messaging.KnownTypesSerializer;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.CommittedOnlyCache;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.run.JobExecutors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The life of a job through the HTTP API of one real node on a real database. */
class JobLifecycleIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(TestDatabase.freshDatabase("lifecycle"), "node-a");
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static JsonNode awaitStatus(String jobId, String status) {
        return node.api.awaitStatus(jobId, status);
    }

    static List<String> eventTypes(String jobId) {
        return node.api.eventTypes(jobId);
    }

    @Test
    void deadlines_are_kept_by_db_scheduler_not_in_memory() {
        assertThat(node.bean(DeadlineManager.class)).isInstanceOf(DbSchedulerDeadlineManager.class);
    }

    @Test
    void cancelling_a_deadline_that_a_node_is_executing_right_then_is_no_error() {
        // a run deadline picked by a node at the moment its job ended: Axon's manager let db-scheduler's refusal
        // through, aborting the job saga's whole batch at its commit
        String id = "picked-" + UUID.randomUUID();
        node.jdbc()
                .update(
                        "INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, picked_by,"
                                + " last_heartbeat, version) VALUES ('AxonDeadline', ?, CURRENT_TIMESTAMP(6), 1,"
                                + " 'another-node', CURRENT_TIMESTAMP(6), 1)",
                        id);
        try {
            assertThatCode(() -> node.bean(DeadlineManager.class).cancelSchedule("run", id))
                    .doesNotThrowAnyException();
            // as the saga cancels: at the commit of its unit of work
            assertThatCode(() -> DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("ended"))
                            .execute(() -> node.bean(DeadlineManager.class).cancelSchedule("run", id)))
                    .doesNotThrowAnyException();
            // and one not there (run and removed already) as before
            assertThatCode(() -> node.bean(DeadlineManager.class).cancelSchedule("run", "gone-" + id))
                    .doesNotThrowAnyException();
        } finally {
            node.jdbc().update("DELETE FROM scheduled_tasks WHERE task_instance = ?", id);
        }
    }

    @Test
    void payloads_and_metadata_of_every_kind_go_through_the_serializer_that_knows_its_types() {
        assertThat(node.bean(Serializer.class)).isInstanceOf(KnownTypesSerializer.class);
        assertThat(node.bean(org.axonframework.config.Configuration.class).eventSerializer())
                .isSameAs(node.bean(Serializer.class));
        assertThat(node.bean(org.axonframework.config.Configuration.class).messageSerializer())
                .isSameAs(node.bean(Serializer.class));
    }

    @Test
    void a_job_stays_in_the_nodes_job_cache_while_it_lives_and_leaves_it_when_it_ends() {
        CommittedOnlyCache jobs = node.context.getBean(AggregateCaches.JOBS, CommittedOnlyCache.class);
        String later = node.api.submit(
                "{\"jobType\":\"noop\",\"runAt\":\"" + Instant.now().plusSeconds(3600) + "\"}");
        String now = node.api.submit("{\"jobType\":\"noop\"}");
        awaitStatus(now, "SUCCEEDED");
        assertThat(jobs.containsKey(later)).isTrue();
        Await.until(Duration.ofSeconds(5), () -> !jobs.containsKey(now), () -> "finished job still cached");
        // read back from the store when an operator touches it again: it knows it has ended
        assertThat(node.api.post("/api/v1/jobs/" + now + "/cancel", "").status())
                .isEqualTo(409);
    }

    @Test
    void a_submitted_job_runs_once_and_its_history_tells_the_whole_story() {
        String jobId = node.api.submit("{\"jobType\":\"noop\",\"params\":{\"orderNo\":\"42\"}}");

        JsonNode job = awaitStatus(jobId, "SUCCEEDED");
        assertThat(job.path("attempt").asInt()).isEqualTo(1);
        assertThat(job.path("maxRetries").asInt()).isEqualTo(3);
        assertThat(job.path("node").asText()).isEqualTo("node-a");
        assertThat(job.path("runAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");

        JsonNode history = node.api.get("/api/v1/jobs/" + jobId + "/history").body();
        assertThat(eventTypes(jobId)).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
        JsonNode created = history.path("events").get(0);
        assertThat(created.path("sequence").asInt()).isZero();
        assertThat(created.path("payload").path("params").path("orderNo").asText())
                .isEqualTo("42");
        assertThat(created.path("metadata").path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(created.path("metadata").path("node").asText()).isEqualTo("node-a");
        assertThat(created.path("metadata").path("correlationId").asText()).isNotBlank();
        assertThat(history.path("events").get(1).path("metadata").path("actor").asText())
                .isEqualTo("scheduler");
    }

    @Test
    void the_actor_is_the_key_not_a_header_and_on_behalf_of_is_recorded_beside_it() {
        String jobId = node.api
                .post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-Actor", "mallory", "X-On-Behalf-Of", "alice")
                .text("jobId");
        awaitStatus(jobId, "SUCCEEDED");
        JsonNode created = node.api
                .get("/api/v1/jobs/" + jobId + "/history")
                .body()
                .path("events")
                .get(0);
        assertThat(created.path("metadata").path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(created.path("metadata").path("onBehalfOf").asText()).isEqualTo("alice");
    }

    @Test
    void a_failing_job_is_retried_with_backoff_until_it_succeeds() {
        String jobId = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":2},\"backoff\":{\"delaysMs\":[200,400]}}");

        JsonNode job = awaitStatus(jobId, "SUCCEEDED");
        assertThat(job.path("attempt").asInt()).isEqualTo(3);
        assertThat(eventTypes(jobId))
                .containsExactly(
                        "JobCreated",
                        "JobClaimed",
                        "JobStarted",
                        "JobFailed",
                        "JobRetryScheduled",
                        "JobClaimed",
                        "JobStarted",
                        "JobFailed",
                        "JobRetryScheduled",
                        "JobClaimed",
                        "JobStarted",
                        "JobSucceeded");
        JsonNode events =
                node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events");
        Instant failedAt = Instant.parse(events.get(3).path("timestamp").asText());
        Instant retryAt =
                Instant.parse(events.get(4).path("payload").path("runAt").asText());
        assertThat(Duration.between(failedAt, retryAt).toMillis()).isBetween(150L, 1_000L);
    }

    @Test
    void a_job_that_keeps_failing_ends_failed_after_its_retries() {
        String jobId = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":1,\"backoff\":{\"delaysMs\":[100]}}");

        Await.until(
                Duration.ofSeconds(30),
                () -> eventTypes(jobId).size() == 8,
                () -> eventTypes(jobId).toString());
        JsonNode job = awaitStatus(jobId, "FAILED");
        assertThat(job.path("lastError").asText()).contains("planned failure 2 of 5");
        assertThat(eventTypes(jobId))
                .containsExactly(
                        "JobCreated",
                        "JobClaimed",
                        "JobStarted",
                        "JobFailed",
                        "JobRetryScheduled",
                        "JobClaimed",
                        "JobStarted",
                        "JobFailed");
    }

    @Test
    void a_run_past_its_timeout_is_timed_out_by_the_deadline_and_retried() {
        String jobId = node.api.submit(
                "{\"jobType\":\"sleep\",\"params\":{\"ms\":60000},\"timeoutMs\":1000,\"maxRetries\":1,\"backoff\":{\"delaysMs\":[100]}}");

        Await.until(
                Duration.ofSeconds(30),
                () -> eventTypes(jobId).stream().filter("JobTimedOut"::equals).count() == 2,
                () -> eventTypes(jobId).toString());
        assertThat(awaitStatus(jobId, "TIMED_OUT").path("attempt").asInt()).isEqualTo(2);
        assertThat(eventTypes(jobId))
                .containsExactly(
                        "JobCreated",
                        "JobClaimed",
                        "JobStarted",
                        "JobTimedOut",
                        "JobRetryScheduled",
                        "JobClaimed",
                        "JobStarted",
                        "JobTimedOut");
    }

    @Test
    void a_job_failed_with_a_retry_to_come_can_be_canceled_and_is_not_retried() throws Exception {
        // the saga that schedules retries held: the job stays FAILED after its first attempt, as it does for a moment
        var lifecycle = node.context
                .getBean(org.axonframework.config.EventProcessingConfiguration.class)
                .eventProcessor("job-lifecycle")
                .orElseThrow();
        lifecycle.shutDown();
        String jobId;
        try {
            jobId = node.api.submit(
                    "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":3,\"backoff\":{\"delaysMs\":[100]}}");
            awaitStatus(jobId, "FAILED");
            var canceled = node.api.post("/api/v1/jobs/" + jobId + "/cancel", "{\"reason\":\"stop retrying\"}");
            assertThat(canceled.status()).as(canceled.body().toString()).isEqualTo(200);
            assertThat(canceled.text("status")).isEqualTo("CANCELED");
        } finally {
            lifecycle.start();
        }
        // the saga then reads the failure and asks for the retry: refused, the operator's decision stands
        long canceledAt = node.jdbc()
                .queryForObject(
                        "SELECT MAX(globalIndex) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                        Long.class,
                        jobId);
        var streaming = (org.axonframework.eventhandling.StreamingEventProcessor) lifecycle;
        Await.until(
                Duration.ofSeconds(30),
                () -> !streaming.processingStatus().isEmpty()
                        && streaming.processingStatus().values().stream()
                                .allMatch(s -> s.getCurrentPosition().orElse(-1) >= canceledAt),
                () -> "job-lifecycle at "
                        + streaming.processingStatus().values().stream()
                                .map(s -> s.getCurrentPosition().orElse(-1))
                                .toList()
                        + ", the cancel at " + canceledAt);
        assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("CANCELED");
        assertThat(eventTypes(jobId))
                .containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobFailed", "JobCanceled");
    }

    @Test
    void a_running_job_can_be_canceled_and_its_handler_is_told_to_stop() {
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
        awaitStatus(jobId, "RUNNING");

        var canceled = node.api.post("/api/v1/jobs/" + jobId + "/cancel", "{\"reason\":\"operator said so\"}");

        assertThat(canceled.status()).isEqualTo(200);
        assertThat(canceled.text("status")).isEqualTo("CANCELED");
        JobExecutors executors = node.bean(JobExecutors.class);
        Await.until(
                Duration.ofSeconds(10),
                () -> Integer.valueOf(16).equals(executors.freeSlots().get("sleep")),
                () -> "free slots " + executors.freeSlots());
        JsonNode cancelEvent = node.api
                .get("/api/v1/jobs/" + jobId + "/history")
                .body()
                .path("events")
                .get(3);
        assertThat(cancelEvent.path("type").asText()).isEqualTo("JobCanceled");
        assertThat(cancelEvent.path("payload").path("reason").asText()).isEqualTo("operator said so");
        assertThat(cancelEvent.path("metadata").path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(eventTypes(jobId)).doesNotContain("JobSucceeded", "JobFailed");
    }

    @Test
    void cancel_of_a_terminal_job_is_a_conflict_and_retry_reruns_it() {
        String jobId = node.api.submit("{\"jobType\":\"noop\"}");
        awaitStatus(jobId, "SUCCEEDED");

        var cancel = node.api.post("/api/v1/jobs/" + jobId + "/cancel", "{}");
        assertThat(cancel.status()).isEqualTo(409);
        assertThat(cancel.contentType()).startsWith("application/problem+json");
        assertThat(node.api.post("/api/v1/jobs/" + jobId + "/retry", "").status())
                .isEqualTo(409);

        String failing = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":0}");
        awaitStatus(failing, "FAILED");
        var retry = node.api.post("/api/v1/jobs/" + failing + "/retry", "");
        assertThat(retry.status()).isEqualTo(200);
        JsonNode job = awaitStatus(failing, "SUCCEEDED");
        assertThat(job.path("attempt").asInt()).isEqualTo(2);
    }

    @Test
    void a_canceled_waiting_job_can_be_rerun() {
        String jobId = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        assertThat(node.api.post("/api/v1/jobs/" + jobId + "/cancel", "").text("status"))
                .isEqualTo("CANCELED");

        assertThat(node.api.post("/api/v1/jobs/" + jobId + "/retry", "").status())
                .isEqualTo(200);

        assertThat(awaitStatus(jobId, "SUCCEEDED").path("attempt").asInt()).isEqualTo(1);
    }

    @Test
    void higher_priority_runs_first_and_a_future_job_waits_for_its_time() {
        String later = node.api.submit("{\"jobType\":\"count\",\"delayMs\":1500}");
        JsonNode waiting = node.api.get("/api/v1/jobs/" + later).body();
        assertThat(waiting.path("status").asText()).isEqualTo("WAITING");
        JsonNode done = awaitStatus(later, "SUCCEEDED");
        JsonNode events =
                node.api.get("/api/v1/jobs/" + later + "/history").body().path("events");
        Instant runAt = Instant.parse(done.path("runAt").asText());
        // the handler runs at the due time; the claim and JobStarted may come up to the claim look-ahead before it
        assertThat(Instant.ofEpochMilli(CountingJobHandler.startedAtMs.get(later)))
                .isAfterOrEqualTo(runAt);
        Instant started = Instant.parse(events.get(2).path("timestamp").asText());
        assertThat(events.get(2).path("type").asText()).isEqualTo("JobStarted");
        long claimAheadMs = node.bean(SchedulerProperties.class).scan().claimAheadMs();
        assertThat(started).isAfterOrEqualTo(runAt.minusMillis(claimAheadMs));
    }

    @Test
    void the_same_job_key_submitted_concurrently_makes_exactly_one_job() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Api.Response>> answers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            answers.add(pool.submit(
                    () -> node.api.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"jobKey\":\"order-42-close\"}")));
        }
        Set<String> ids = new HashSet<>();
        int created = 0;
        for (Future<Api.Response> answer : answers) {
            Api.Response r = answer.get();
            ids.add(r.text("jobId"));
            if (r.status() == 201) {
                created++;
                assertThat(r.body().path("created").asBoolean()).isTrue();
            } else {
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body().path("created").asBoolean()).isFalse();
            }
        }
        pool.shutdown();
        assertThat(created).isEqualTo(1);
        assertThat(ids).hasSize(1);
        Integer aggregates = node.jdbc()
                .queryForObject("SELECT COUNT(*) FROM job_queue WHERE job_key = 'order-42-close'", Integer.class);
        assertThat(aggregates).isEqualTo(1);
    }

    @Test
    void a_batch_is_created_whole_and_keeps_each_jobs_settings() {
        StringBuilder body = new StringBuilder("{\"jobs\":[");
        for (int i = 0; i < 50; i++) {
            if (i > 0) body.append(',');
            body.append("{\"jobType\":\"noop\",\"priority\":")
                    .append(i % 3)
                    .append(",\"jobKey\":\"batch-")
                    .append(i)
                    .append("\"}");
        }
        // item 7 again, its fields in another order
        body.append(",{\"jobKey\":\"batch-7\",\"priority\":1,\"jobType\":\"noop\"}]}");
        var answer = node.api.post("/api/v1/jobs/batch", body.toString());

        assertThat(answer.status()).isEqualTo(200);
        JsonNode results = answer.body().path("results");
        assertThat(results).hasSize(51);
        assertThat(results.get(50).path("created").asBoolean()).isFalse();
        assertThat(results.get(50).path("jobId").asText())
                .isEqualTo(results.get(7).path("jobId").asText());
        for (int i = 0; i < 50; i++) awaitStatus(results.get(i).path("jobId").asText(), "SUCCEEDED");
    }

    @Test
    void a_job_key_sent_again_with_another_request_is_refused_and_writes_nothing() {
        var first = node.api.post("/api/v1/jobs", """
                {"jobType":"noop","jobKey":"bill-2026-12","delayMs":600000,"params":{"month":12,"to":{"a":1,"b":2}}}""");
        assertThat(first.status()).as(first.body().toString()).isEqualTo(201);
        String jobId = first.text("jobId");
        // the same request, its fields in another order at every depth: the first job
        var same = node.api.post("/api/v1/jobs", """
                {"params":{"to":{"b":2,"a":1},"month":12},"delayMs":600000,"jobKey":"bill-2026-12","jobType":"noop"}""");
        assertThat(same.status()).as(same.body().toString()).isEqualTo(200);
        assertThat(same.text("jobId")).isEqualTo(jobId);

        long events = node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class);
        var other = node.api.post("/api/v1/jobs", """
                {"jobType":"noop","jobKey":"bill-2026-12","delayMs":600000,"params":{"month":11,"to":{"a":1,"b":2}}}""");
        assertThat(other.status()).as(other.body().toString()).isEqualTo(422);
        assertThat(other.contentType()).startsWith("application/problem+json");
        assertThat(other.body().path("errors").get(0).path("field").asText()).isEqualTo("jobKey");
        assertThat(other.text("jobId"))
                .as("what the key names, for a client to find")
                .isEqualTo(jobId);
        assertThat(other.body().path("errors").get(0).path("message").asText())
                .contains("different request")
                .contains(jobId);

        // in a batch: the batch names the item, and its other jobs are not made either
        var batch = node.api.post("/api/v1/jobs/batch", """
                {"jobs":[{"jobType":"noop","jobKey":"bill-2026-12-extra"},
                         {"jobType":"noop","jobKey":"bill-2026-12","delayMs":600000}]}""");
        assertThat(batch.status()).as(batch.body().toString()).isEqualTo(422);
        assertThat(batch.body().path("errors").get(0).path("field").asText()).isEqualTo("jobs[1].jobKey");
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class))
                .isEqualTo(events);
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM job_keys WHERE job_key = 'bill-2026-12-extra'", Integer.class))
                .isZero();
        assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("WAITING");

        // a key taken before request fingerprints were kept is not compared: it answers with its job as it did
        node.jdbc().update("UPDATE job_keys SET request_hash = NULL WHERE job_key = 'bill-2026-12'");
        var unfingerprinted = node.api.post("/api/v1/jobs", """
                {"jobType":"noop","jobKey":"bill-2026-12","delayMs":5}""");
        assertThat(unfingerprinted.status())
                .as(unfingerprinted.body().toString())
                .isEqualTo(200);
        assertThat(unfingerprinted.text("jobId")).isEqualTo(jobId);
    }

    @Test
    void the_same_job_key_sent_at_once_with_two_requests_makes_one_job_and_refuses_the_other_request()
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Api.Response>> answers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            String month = i % 2 == 0 ? "11" : "12";
            answers.add(pool.submit(() -> node.api.post(
                    "/api/v1/jobs",
                    "{\"jobType\":\"noop\",\"jobKey\":\"raced-bill\",\"delayMs\":600000,\"params\":{\"month\":" + month
                            + "}}")));
        }
        java.util.Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        Set<String> ids = new HashSet<>();
        for (Future<Api.Response> answer : answers) {
            Api.Response r = answer.get();
            statuses.merge(r.status(), 1, Integer::sum);
            ids.add(r.text("jobId"));
        }
        pool.shutdown();
        // one made it; the other seven of its request are answered with it, the eight of the other refused
        assertThat(statuses).isEqualTo(java.util.Map.of(200, 7, 201, 1, 422, 8));
        assertThat(ids).as("the refusals name the job too").hasSize(1);
        assertThat(node.jdbc()
                        .queryForObject("SELECT COUNT(*) FROM job_queue WHERE job_key = 'raced-bill'", Integer.class))
                .isEqualTo(1);
    }

    @Test
    void a_batch_with_one_bad_job_writes_nothing_and_names_the_job() {
        long before = node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class);
        var answer = node.api.post(
                "/api/v1/jobs/batch", "{\"jobs\":[{\"jobType\":\"noop\"},{\"jobType\":\"noop\",\"maxRetries\":-1}]}");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body().path("errors").get(0).path("field").asText()).isEqualTo("jobs[1].maxRetries");
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class))
                .isEqualTo(before);
    }

    @Test
    void bad_requests_are_problems_that_name_the_field_and_write_nothing() {
        long before = node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class);
        String bigParams = "{\"jobType\":\"noop\",\"params\":{\"blob\":\"" + "x".repeat(70_000) + "\"}}";
        List<String[]> cases = List.of(
                new String[] {"{}", "jobType"},
                new String[] {"{\"jobType\":\"no-such-type\"}", "jobType"},
                new String[] {"{\"jobType\":\"noop\",\"priority\":-5000}", "priority"},
                new String[] {"{\"jobType\":\"noop\",\"timeoutMs\":-1}", "timeoutMs"},
                new String[] {"{\"jobType\":\"noop\",\"delayMs\":-1}", "delayMs"},
                new String[] {"{\"jobType\":\"noop\",\"runAt\":\"2030-01-01T00:00:00Z\",\"delayMs\":5}", "runAt"},
                new String[] {"{\"jobType\":\"noop\",\"runAt\":\"tomorrow\"}", "runAt"},
                new String[] {"{\"jobType\":\"noop\",\"maxRetry\":3}", "maxRetry"},
                new String[] {"{\"jobType\":\"noop\",\"backoff\":{\"delaysMs\":[10,-1]}}", "backoff.delaysMs[1]"},
                new String[] {bigParams, "params"},
                new String[] {"{\"jobType\":\"noop\"", "body"},
                new String[] {"[1,2]", "body"});
        for (String[] c : cases) {
            var answer = node.api.post("/api/v1/jobs", c[0]);
            assertThat(answer.status())
                    .as(c[0].substring(0, Math.min(80, c[0].length())))
                    .isEqualTo(400);
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(answer.body().path("errors").get(0).path("field").asText())
                    .as(c[1])
                    .isEqualTo(c[1]);
            assertThat(answer.body().path("errors").get(0).path("message").asText())
                    .isNotBlank();
        }
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class))
                .isEqualTo(before);
    }

    @Test
    void unknown_ids_are_not_found() {
        assertThat(node.api.get("/api/v1/jobs/nope").status()).isEqualTo(404);
        assertThat(node.api.get("/api/v1/jobs/nope/history").status()).isEqualTo(404);
        assertThat(node.api.post("/api/v1/jobs/nope/cancel", "").status()).isEqualTo(404);
        assertThat(node.api.post("/api/v1/jobs/nope/retry", "").status()).isEqualTo(404);
    }

    @Test
    void history_as_of_a_moment_shows_the_job_as_it_was_then() {
        // due in a second, so that the claim (written with the start, in one batch) comes well after the creation
        String jobId = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":1000}");
        awaitStatus(jobId, "SUCCEEDED");
        JsonNode events =
                node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events");
        String createdAt = events.get(0).path("timestamp").asText();

        JsonNode asOf = node.api
                .get("/api/v1/jobs/" + jobId + "/history?asOf=" + createdAt)
                .body();

        assertThat(asOf.path("state").path("status").asText()).isEqualTo("WAITING");
        assertThat(asOf.path("events")).hasSize(1);
        assertThat(events.get(1).path("type").asText()).isEqualTo("JobClaimed");
        assertThat(node.api
                        .get("/api/v1/jobs/" + jobId + "/history?asOf=yesterday")
                        .status())
                .isEqualTo(400);
        // before the job was made: 404 naming the instant as it was given, to the millisecond
        Instant before = Instant.parse(createdAt)
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .minusSeconds(1);
        Api.Response notYet = node.api.get("/api/v1/jobs/" + jobId + "/history?asOf=" + before.toString());
        assertThat(notYet.status()).isEqualTo(404);
        assertThat(notYet.text("detail")).contains(io.axscheduler.api.IsoInstants.millis(before));
    }

    @Test
    void the_list_filters_by_status_and_type_and_pages() {
        for (int i = 0; i < 3; i++) node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        JsonNode page = node.api
                .get("/api/v1/jobs?status=WAITING&jobType=noop&page=0&size=2")
                .body();
        assertThat(page.path("items")).hasSize(2);
        assertThat(page.path("total").asInt()).isGreaterThanOrEqualTo(3);
        page.path("items").forEach(j -> assertThat(j.path("status").asText()).isEqualTo("WAITING"));
        // by type alone: the type's jobs whatever their status (the newest two here)
        String waiting = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        String canceled = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        assertThat(node.api
                        .post("/api/v1/jobs/" + canceled + "/cancel", "{\"reason\":\"listed\"}")
                        .status())
                .isEqualTo(200);
        JsonNode byType = node.api.get("/api/v1/jobs?jobType=noop&size=2").body();
        assertThat(byType.path("total").asInt()).isGreaterThanOrEqualTo(5);
        assertThat(byType.path("items").findValuesAsText("jobId")).containsExactlyInAnyOrder(canceled, waiting);
        assertThat(byType.path("items").findValuesAsText("status")).containsExactlyInAnyOrder("CANCELED", "WAITING");
        assertThat(node.api.get("/api/v1/jobs?size=501").status()).isEqualTo(400);
        assertThat(node.api
                        .get("/api/v1/jobs?status=SLEEPING")
                        .body()
                        .path("errors")
                        .get(0)
                        .path("field")
                        .asText())
                .isEqualTo("status");
    }

    @Test
    void the_list_walks_by_cursor_from_a_numbered_page_or_from_the_start() {
        List<String> submitted = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            submitted.add(node.api.submit("{\"namespace\":\"cursor-walk\",\"jobType\":\"noop\",\"delayMs\":3600000}"));
        }
        List<String> newestFirst = new ArrayList<>(submitted);
        java.util.Collections.reverse(newestFirst); // ids are time-ordered, and so is their creation

        // a numbered page's next goes on as a keyset walk
        JsonNode first =
                node.api.get("/api/v1/jobs?namespace=cursor-walk&size=3").body();
        assertThat(first.path("total").asInt()).isEqualTo(7);
        List<String> seen = new ArrayList<>(first.path("items").findValuesAsText("jobId"));
        String next = first.path("next").asText(null);
        List<Integer> sizes = new ArrayList<>();
        while (next != null) {
            JsonNode page = node.api
                    .get("/api/v1/jobs?namespace=cursor-walk&size=3&cursor=" + next)
                    .body();
            assertThat(page.has("total")).as("a keyset page counts nothing").isFalse();
            sizes.add(page.path("items").size());
            seen.addAll(page.path("items").findValuesAsText("jobId"));
            next = page.path("next").asText(null);
        }
        assertThat(sizes).containsExactly(3, 1);
        assertThat(seen).containsExactlyElementsOf(newestFirst);

        // an empty cursor starts a keyset walk, with the filters of a numbered page
        JsonNode start = node.api
                .get("/api/v1/jobs?namespace=cursor-walk&jobType=noop&status=WAITING&size=5&cursor=")
                .body();
        assertThat(start.path("items").findValuesAsText("jobId")).containsExactlyElementsOf(newestFirst.subList(0, 5));
        assertThat(start.path("next").asText()).isNotBlank();

        // a made-up cursor, or a cursor with a page number, is refused naming the cursor
        for (String bad : List.of("cursor=yesterday", "cursor=1:a%20b", "cursor=&page=2")) {
            Api.Response refused = node.api.get("/api/v1/jobs?" + bad);
            assertThat(refused.status()).as(bad).isEqualTo(400);
            assertThat(refused.body().path("errors").get(0).path("field").asText())
                    .as(bad)
                    .isEqualTo("cursor");
        }
    }

    @Test
    void the_job_queue_can_be_rebuilt_from_the_event_store() {
        String jobId = node.api.submit("{\"jobType\":\"noop\"}");
        JsonNode before = awaitStatus(jobId, "SUCCEEDED");
        node.jdbc().update("UPDATE job_queue SET status = 'WAITING', attempt = 0 WHERE job_id = ?", jobId);

        var rebuilt = node.api.post("/api/v1/admin/projections/job-queue/rebuild", "");

        assertThat(rebuilt.status()).isEqualTo(200);
        assertThat(rebuilt.body().path("events").asLong()).isPositive();
        JsonNode after = node.api.get("/api/v1/jobs/" + jobId).body();
        assertThat(after.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(after.path("attempt").asInt())
                .isEqualTo(before.path("attempt").asInt());
    }

    @Test
    void health_is_up_while_the_scanner_scans() {
        var health = node.api.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()
                        .path("components")
                        .path("scanner")
                        .path("status")
                        .asText())
                .isEqualTo("UP");
    }
}
