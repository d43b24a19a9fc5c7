package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.schedule.CreateSchedule;
import io.axscheduler.api.schedule.CreateSchedules;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.ScheduleJobKeys;
import io.axscheduler.api.schedule.Trigger;
import io.axscheduler.axonmysql.messaging.OneUnitOfWork;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.CommittedOnlyCache;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.fire.FireDueSchedules;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A batch of due schedules fires in one transaction and one unit of work: all its fires and jobs land, or, when one
 * of them fails, none, and the schedules then fire as if the batch had never been tried (no aggregate kept in the
 * cache with a fire that was rolled back).
 */
class ScheduleFireBatchIT {

    static Node node;

    @BeforeAll
    static void start() {
        // no scan loops: the test fires by hand. A loaded machine may take seconds between making a schedule and
        // firing it: a wide misfire threshold keeps that fire an on-time one (with its job key), not a catch-up
        node = Node.start(
                TestDatabase.freshDatabase("schedule_fire_batch"),
                "node-a",
                Map.of(
                        "ax.scheduler.scan.enabled", "false",
                        // the batches here are made of schedules due within the look-ahead, not yet due
                        "ax.scheduler.schedules.fire-ahead-ms", "1500",
                        "ax.scheduler.schedules.misfire-threshold-ms", "120000"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** {@code n} fixed-rate schedules through the batch API, first due at {@code startAt}; their ids. */
    private static List<String> createBatch(String name, int n, Instant startAt) {
        StringBuilder body = new StringBuilder("{\"schedules\":[");
        for (int i = 0; i < n; i++) {
            body.append(i == 0 ? "" : ",").append("""
                    {"name":"%s-%d","trigger":{"type":"fixedRate","intervalMs":60000,"startAt":"%s"},"job":{"jobType":"noop"}}""".formatted(name, i, startAt));
        }
        var made = node.api.post("/api/v1/schedules/batch", body.append("]}").toString());
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        List<String> ids = new ArrayList<>();
        for (JsonNode result : made.body().path("results"))
            ids.add(result.path("scheduleId").asText());
        return ids;
    }

    private static int events(String payloadType, List<String> ids) {
        return ids.stream()
                .mapToInt(id -> node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM DomainEventEntry"
                                        + " WHERE aggregateIdentifier = ? AND payloadType LIKE ?",
                                Integer.class,
                                id,
                                "%." + payloadType))
                .sum();
    }

    @Test
    void a_batch_of_due_schedules_fires_whole_each_making_its_job_due_at_the_fire_time() {
        // within the fire-ahead (1.5 s): due for the batch now, its jobs due at the fire time
        Instant startAt = Instant.now().plusMillis(800).truncatedTo(ChronoUnit.MILLIS);
        List<String> ids = createBatch("whole", 5, startAt);
        assertThat(events("ScheduleCreated", ids)).isEqualTo(5);

        FireDueSchedules.Fired fired = node.bean(FireDueSchedules.class).fireDue(100, Set.of());

        assertThat(fired).isEqualTo(new FireDueSchedules.Fired(5, 5, 0));
        assertThat(events("ScheduleFired", ids)).isEqualTo(5);
        JdbcTemplate jdbc = node.jdbc();
        for (String id : ids) {
            assertThat(jdbc.queryForList("SELECT run_at FROM job_queue WHERE schedule_id = ?", Long.class, id))
                    .containsExactly(startAt.toEpochMilli());
            assertThat(jdbc.queryForMap(
                            "SELECT fire_count, next_fire_at, last_fire_at FROM schedules WHERE schedule_id = ?", id))
                    .containsEntry("fire_count", 1L)
                    .containsEntry("next_fire_at", startAt.plusSeconds(60).toEpochMilli())
                    .containsEntry("last_fire_at", startAt.toEpochMilli());
        }
    }

    @Test
    void a_batch_creates_each_schedule_as_the_caller_and_keeps_it_in_the_schedule_cache() {
        List<String> ids = createBatch("actor", 3, Instant.now().plusSeconds(3600));
        CommittedOnlyCache cache = node.context.getBean(AggregateCaches.SCHEDULES, CommittedOnlyCache.class);
        for (String id : ids) {
            JsonNode created = node.api
                    .get("/api/v1/schedules/" + id + "/history")
                    .body()
                    .path("events")
                    .get(0);
            assertThat(created.path("type").asText()).isEqualTo("ScheduleCreated");
            assertThat(created.path("metadata").path("actor").asText()).isEqualTo("key:bootstrap-admin");
            assertThat(created.path("metadata").path("node").asText()).isEqualTo("node-a");
            // a first fire does not read the new schedule back from the event store
            assertThat((Object) cache.get(id)).as(id).isNotNull();
        }
    }

    @Test
    void a_batch_with_one_schedule_that_cannot_be_created_creates_none_of_them() {
        Instant later = Instant.now().plusSeconds(3600);
        String existing = createBatch("exists", 1, later).get(0);
        Instant now = Instant.now();
        JobTemplate job = new JobTemplate("noop", Map.of(), 0, RetryPolicy.defaults(), 30_000, null, null);
        List<CreateSchedule> creates = new ArrayList<>();
        for (String id :
                List.of(TimeOrderedIds.next(now.toEpochMilli()), TimeOrderedIds.next(now.toEpochMilli()), existing)) {
            creates.add(new CreateSchedule(
                    id,
                    "all-or-none",
                    Trigger.fixedRate(60_000, later),
                    job,
                    MisfirePolicy.FIRE_ONCE,
                    OverlapPolicy.ALLOW,
                    now));
        }

        // the existing schedule's id takes a sequence number its stream already has: the append fails, and all with it
        assertThatThrownBy(() -> node.bean(TransactionTemplate.class)
                        .executeWithoutResult(
                                tx -> node.bean(CommandGateway.class).sendAndWait(new CreateSchedules(creates))))
                .isInstanceOf(RuntimeException.class);

        CommittedOnlyCache cache = node.context.getBean(AggregateCaches.SCHEDULES, CommittedOnlyCache.class);
        for (CreateSchedule create : creates.subList(0, 2)) {
            String id = create.scheduleId();
            assertThat(events("ScheduleCreated", List.of(id))).as(id).isZero();
            assertThat(node.jdbc()
                            .queryForObject("SELECT COUNT(*) FROM schedules WHERE schedule_id = ?", Integer.class, id))
                    .as(id)
                    .isZero();
            assertThat((Object) cache.get(id)).as(id).isNull();
        }
        assertThat(events("ScheduleCreated", List.of(existing))).isEqualTo(1);
        assertThat(node.jdbc()
                        .queryForObject("SELECT name FROM schedules WHERE schedule_id = ?", String.class, existing))
                .isEqualTo("exists-0");
    }

    @Test
    void one_fire_that_fails_takes_back_the_whole_batch_and_the_schedules_fire_afterwards_as_if_never_tried() {
        Instant startAt = Instant.now().plusMillis(800).truncatedTo(ChronoUnit.MILLIS);
        List<String> ids = createBatch("doomed", 3, startAt);
        JdbcTemplate jdbc = node.jdbc();
        // the last schedule's fire time has a job already, by its key: its fire must fail, and with it the batch
        String last = ids.get(2);
        jdbc.update(
                "INSERT INTO job_keys (job_key, namespace, job_id) VALUES (?, 'default', ?)",
                ScheduleJobKeys.of(last, startAt, FireKind.SCHEDULED, null),
                "someone-else");

        FireDueSchedules fire = node.bean(FireDueSchedules.class);
        assertThatThrownBy(() -> fire.fireDue(100, Set.of())).hasMessageContaining(last);

        assertThat(events("ScheduleFired", ids)).isZero();
        assertThat(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM job_queue WHERE schedule_id IN (?, ?, ?)", Integer.class, ids.toArray()))
                .isZero();
        assertThat(jdbc.queryForList(
                        "SELECT fire_count FROM schedules WHERE schedule_id IN (?, ?, ?)",
                        Integer.class,
                        ids.toArray()))
                .containsOnly(0);
        // the cached schedules were evicted with the rollback: a stale one would refuse its fire time as already fired
        assertThat(fire.fire(ids.get(0))).isEqualTo(1);
        assertThat(fire.fire(ids.get(1))).isEqualTo(1);
        assertThat(events("ScheduleFired", ids)).isEqualTo(2);
        // out of the other test's way: the last schedule's fire time stays taken
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/schedules/" + last).status())
                .isEqualTo(200);
    }

    private static SubmitJob submit(String jobId, String jobKey) {
        return new SubmitJob(
                jobId,
                jobKey,
                "noop",
                Map.of(),
                0,
                Instant.now().plusSeconds(3600),
                RetryPolicy.defaults(),
                30_000,
                null,
                null,
                null);
    }

    private static int keys(String... keys) {
        return node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM job_keys WHERE job_key IN ("
                                + String.join(", ", java.util.Collections.nCopies(keys.length, "?")) + ")",
                        Integer.class,
                        (Object[]) keys);
    }

    @Test
    void the_keys_of_fires_made_together_are_written_together_as_their_unit_commits() {
        SchedulerCommands commands = node.bean(SchedulerCommands.class);
        node.bean(TransactionTemplate.class)
                .execute(tx -> OneUnitOfWork.run(() -> {
                    assertThat(commands.submitFailingOnTakenKey(submit("keys-job-1", "keys-1"))
                                    .created())
                            .isTrue();
                    assertThat(commands.submitFailingOnTakenKey(submit("keys-job-2", "keys-2"))
                                    .created())
                            .isTrue();
                    // read in the unit's own transaction: not written yet
                    assertThat(keys("keys-1", "keys-2")).isZero();
                    return null;
                }));
        assertThat(node.jdbc()
                        .queryForList(
                                "SELECT job_id FROM job_keys WHERE job_key IN ('keys-1', 'keys-2') ORDER BY job_id",
                                String.class))
                .containsExactly("keys-job-1", "keys-job-2");
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM job_queue WHERE job_id IN ('keys-job-1', 'keys-job-2')",
                                Integer.class))
                .isEqualTo(2);
    }

    @Test
    void a_taken_key_among_them_fails_the_whole_unit_and_names_the_keys() {
        node.jdbc()
                .update(
                        "INSERT INTO job_keys (job_key, namespace, job_id) VALUES ('taken-2', 'default', 'someone-else')");
        SchedulerCommands commands = node.bean(SchedulerCommands.class);

        assertThatThrownBy(() -> node.bean(TransactionTemplate.class)
                        .execute(tx -> OneUnitOfWork.run(() -> {
                            commands.submitFailingOnTakenKey(submit("taken-job-1", "taken-1"));
                            commands.submitFailingOnTakenKey(submit("taken-job-2", "taken-2"));
                            return null;
                        })))
                .isInstanceOf(DuplicateKeyException.class)
                .hasMessageContaining("taken-1")
                .hasMessageContaining("taken-2");

        assertThat(keys("taken-1")).isZero();
        assertThat(node.jdbc().queryForObject("SELECT job_id FROM job_keys WHERE job_key = 'taken-2'", String.class))
                .isEqualTo("someone-else");
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier IN"
                                        + " ('taken-job-1', 'taken-job-2')",
                                Integer.class))
                .isZero();
        // without the flag a taken key answers with the job it made, as before
        var again = node.bean(org.axonframework.commandhandling.gateway.CommandGateway.class)
                .<io.axscheduler.api.job.SubmitResult>sendAndWait(submit("taken-job-3", "taken-2"));
        assertThat(again.created()).isFalse();
        assertThat(again.jobId()).isEqualTo("someone-else");
    }
}
