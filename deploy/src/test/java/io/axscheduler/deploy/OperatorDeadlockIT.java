package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The fire scan locks a schedule's row, then appends its ScheduleFired; an operator's pause appends first, then
 * updates that row. Crossing, the two deadlock and the database rolls one back. When the pause is the one, the
 * operator must not see a 500: the pause is retried on a freshly loaded schedule, as after a lost append race.
 */
class OperatorDeadlockIT {

    @Test
    void a_pause_chosen_as_deadlock_victim_is_retried_and_answers_200() throws Exception {
        String db = TestDatabase.freshDatabase("operator_deadlock");
        try (Node node = Node.start(db, "node-a", Map.of("ax.scheduler.scan.enabled", "false"));
                Connection fire = TestDatabase.connect(db)) {
            String id = ScheduleHttp.create(node.api, """
                    {"name":"yearly","trigger":{"type":"cron","expression":"0 0 0 1 1 ?","timezone":"UTC"},
                     "job":{"jobType":"noop"}}""");
            long sequence = node.jdbc()
                    .queryForObject(
                            "SELECT MAX(sequenceNumber) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                            Long.class,
                            id);

            // what a fire batch does first: lock the row; with more written than the pause, so the pause is the victim
            try (Statement s = fire.createStatement()) {
                s.execute("CREATE TABLE ballast (n INT PRIMARY KEY)");
                fire.setAutoCommit(false);
                s.execute(
                        "INSERT INTO ballast SELECT seq FROM (SELECT 1 AS seq UNION SELECT 2 UNION SELECT 3 UNION SELECT 4"
                                + " UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8) s");
                s.executeQuery("SELECT schedule_id FROM schedules WHERE schedule_id = '" + id + "' FOR UPDATE")
                        .close();
            }
            CompletableFuture<Api.Response> pause =
                    CompletableFuture.supplyAsync(() -> node.api.post("/api/v1/schedules/" + id + "/pause", "{}"));
            Await.until(
                    Duration.ofSeconds(20),
                    () -> waitingTransactions(node) > 0,
                    () -> "the pause never waited for the row");

            // then append the schedule's next event, which the waiting pause has already appended: the cycle closes
            try (PreparedStatement append = fire.prepareStatement("INSERT INTO DomainEventEntry (aggregateIdentifier,"
                    + " sequenceNumber, type, eventIdentifier, payload, payloadType, timeStamp)"
                    + " VALUES (?, ?, 'Schedule', UUID(), 'x', 'test.Fired', '2026-01-01T00:00:00Z')")) {
                append.setString(1, id);
                append.setLong(2, sequence + 1);
                append.executeUpdate();
            } catch (SQLException e) {
                throw new AssertionError(
                        "the fire's transaction, not the pause, was rolled back: the race was not staged", e);
            } finally {
                fire.rollback();
            }

            Api.Response answer = pause.get();
            assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
            assertThat(answer.text("state")).isEqualTo("PAUSED");
        }
    }

    private static int waitingTransactions(Node node) {
        return node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'",
                        Integer.class);
    }
}
