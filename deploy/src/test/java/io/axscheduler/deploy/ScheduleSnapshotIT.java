package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.ScheduleFired;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.modelling.command.Repository;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * A schedule with 200,000 past fires in the store (a fire every second for two and a half days) is loaded in
 * milliseconds by a node that has just started, from its snapshot, and fires on time right after. The fires are
 * written as the event store's rows, serialized by the node's own event serializer, in multi-row INSERTs: firing them
 * through commands would take this test many minutes.
 */
class ScheduleSnapshotIT {

    private static final int PAST_FIRES = 200_000;
    private static final Map<String, String> NO_SNAPSHOTS =
            Map.of("ax.command.snapshots.schedule-threshold", "1000000000");

    @Test
    void a_schedule_with_200000_fires_loads_in_milliseconds_after_a_restart_and_fires_on_time() throws Exception {
        String db = TestDatabase.freshDatabase("schedule_snapshot");
        String id;
        try (Node node = Node.start(db, "node-a", NO_SNAPSHOTS)) {
            id = ScheduleHttp.create(node.api, """
                    {"name":"hourly","trigger":{"type":"fixedRate","intervalMs":3600000},"job":{"jobType":"noop"}}""");
            long started = System.nanoTime();
            writePastFires(node, db, id);
            System.out.printf(
                    "[snapshot] wrote %d fire events in %d ms%n",
                    PAST_FIRES, Duration.ofNanos(System.nanoTime() - started).toMillis());
        }
        long withoutMs;
        try (Node node = Node.start(db, "node-b", NO_SNAPSHOTS)) {
            withoutMs = loadMs(node, id);
        }
        try (Node node = Node.start(db, "node-c")) {
            loadMs(node, id); // reads the whole stream once more, and stores a snapshot as that unit commits
            assertThat(node.jdbc()
                            .queryForObject(
                                    "SELECT COUNT(*) FROM SnapshotEventEntry WHERE aggregateIdentifier = ?",
                                    Integer.class,
                                    id))
                    .isEqualTo(1);
        }
        try (Node node = Node.start(db, "node-d")) {
            long withMs = loadMs(node, id);
            System.out.printf(
                    "[snapshot] schedule with %d fires loaded after a restart: %d ms without a snapshot, %d ms with%n",
                    PAST_FIRES, withoutMs, withMs);
            assertThat(withMs).as("load with a snapshot, ms").isLessThan(500);
            assertThat(withMs).isLessThan(withoutMs / 5);

            // its history is read a page at a time, from anywhere in the stream
            long pageStarted = System.nanoTime();
            Api.Response page = node.api.get("/api/v1/schedules/" + id + "/history?page=1500&size=100");
            long pageMs = Duration.ofNanos(System.nanoTime() - pageStarted).toMillis();
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body().path("events")).hasSize(100);
            assertThat(page.body().path("events").get(0).path("sequence").asLong())
                    .isEqualTo(150_000);
            assertThat(page.body().path("hasMore").asBoolean()).isTrue();
            System.out.printf("[snapshot] history page 1500 of 100 events read in %d ms%n", pageMs);

            // and it fires on time: due three seconds from now, its job is made and due at that time
            Instant fireAt = Instant.now().plusSeconds(3).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Api.Response updated = ScheduleHttp.put(
                    node.api,
                    "/api/v1/schedules/" + id,
                    "{\"name\":\"hourly\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":3600000,\"startAt\":\""
                            + fireAt + "\"},\"job\":{\"jobType\":\"noop\"}}");
            assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
            Await.until(
                    Duration.ofSeconds(15),
                    () -> node.jdbc()
                                    .queryForObject(
                                            "SELECT COUNT(*) FROM job_queue WHERE schedule_id = ? AND status = 'SUCCEEDED'",
                                            Integer.class,
                                            id)
                            > 0,
                    () -> "the schedule did not fire after the restart");
            long lateMs = node.jdbc()
                    .queryForObject(
                            "SELECT updated_at - ? FROM job_queue WHERE schedule_id = ? AND status = 'SUCCEEDED'",
                            Long.class,
                            fireAt.toEpochMilli(),
                            id);
            System.out.printf("[snapshot] first fire after the restart ended %d ms after its fire time%n", lateMs);
            assertThat(lateMs).as("ms from the fire time to the job's end").isBetween(0L, 2000L);
        }
    }

    /** Loads the schedule in a unit of work of its own, as a command would on a node that has not cached it. */
    private static long loadMs(Node node, String id) {
        Repository<?> schedules = node.context.getBean("scheduleRepository", Repository.class);
        long started = System.nanoTime();
        DefaultUnitOfWork.startAndGet(null).execute(() -> schedules.load(id));
        return Duration.ofNanos(System.nanoTime() - started).toMillis();
    }

    /** The fires a schedule made every second before now, each naming the next fire time the node already keeps. */
    private static void writePastFires(Node node, String db, String id) throws Exception {
        Serializer events = node.context.getBean("eventSerializer", Serializer.class);
        long next =
                node.jdbc().queryForObject("SELECT next_fire_at FROM schedules WHERE schedule_id = ?", Long.class, id);
        long sequence = node.jdbc()
                .queryForObject(
                        "SELECT MAX(sequenceNumber) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                        Long.class,
                        id);
        SerializedObject<byte[]> metaData = events.serialize(MetaData.with("actor", "scheduler"), byte[].class);
        Instant first = Instant.now().minusSeconds(PAST_FIRES + 60);
        int rowsPerInsert = 1000;
        StringBuilder sql = new StringBuilder("INSERT INTO DomainEventEntry (aggregateIdentifier, sequenceNumber, type,"
                + " eventIdentifier, metaData, payload, payloadRevision, payloadType, timeStamp) VALUES ");
        for (int r = 0; r < rowsPerInsert; r++) sql.append(r == 0 ? "" : ",").append("(?,?,?,?,?,?,?,?,?)");
        try (Connection c = TestDatabase.connect(db);
                PreparedStatement insert = c.prepareStatement(sql.toString())) {
            c.setAutoCommit(false);
            for (int done = 0; done < PAST_FIRES; ) {
                for (int r = 0; r < rowsPerInsert; r++, done++) {
                    Instant fireTime = first.plusSeconds(done);
                    SerializedObject<byte[]> payload = events.serialize(
                            new ScheduleFired(
                                    id,
                                    fireTime,
                                    FireKind.SCHEDULED,
                                    UUID.randomUUID().toString(),
                                    Instant.ofEpochMilli(next),
                                    "default"),
                            byte[].class);
                    int p = r * 9;
                    insert.setString(p + 1, id);
                    insert.setLong(p + 2, ++sequence);
                    insert.setString(p + 3, "Schedule");
                    insert.setString(p + 4, UUID.randomUUID().toString());
                    insert.setBytes(p + 5, metaData.getData());
                    insert.setBytes(p + 6, payload.getData());
                    insert.setString(p + 7, payload.getType().getRevision());
                    insert.setString(p + 8, payload.getType().getName());
                    insert.setString(p + 9, DateTimeUtils.formatInstant(fireTime));
                }
                insert.executeUpdate();
                c.commit();
            }
        }
    }
}
