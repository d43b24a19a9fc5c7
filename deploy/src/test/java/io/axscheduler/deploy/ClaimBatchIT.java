package io.axscheduler.deploy;

import io.axscheduler.scheduler.scan.ClaimDueJobs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DESIGN.md's spike found that a command failing inside a claim batch let Axon roll back the shared connection while
 * the outer commit reported success: the claims before it silently vanished. What a claim batch reports as claimed
 * must be exactly what it committed: a job that refuses is left out, and a batch whose append fails commits nothing.
 */
class ClaimBatchIT {

    static String database;
    static Node node;

    @BeforeAll
    static void start() {
        database = TestDatabase.freshDatabase("claim_batch");
        node = Node.start(database, "node-a", Map.of("ax.scheduler.scan.enabled", "false"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void a_job_that_refuses_its_claim_is_left_out_and_the_rest_of_the_batch_commits() {
        node.jdbc().update("UPDATE job_queue SET claimable = 0");
        String first = node.api.submit("{\"jobType\":\"noop\",\"priority\":3}");
        String refused = node.api.submit("{\"jobType\":\"noop\",\"priority\":2}");
        String last = node.api.submit("{\"jobType\":\"noop\",\"priority\":1}");
        node.api.post("/api/v1/jobs/" + refused + "/cancel", "");
        // make the read model lie about the canceled job, so its ClaimJob is refused by the aggregate mid-batch
        node.jdbc().update("UPDATE job_queue SET status = 'WAITING', claimable = 1 WHERE job_id = ?", refused);

        var claimed = node.bean(ClaimDueJobs.class).claim(Map.of("noop", 16));

        assertThat(claimed).extracting(c -> c.jobId()).containsExactly(first, last);
        assertThat(claimed).allMatch(c -> c.started());
        assertThat(statusOf(first)).isEqualTo("RUNNING");
        assertThat(statusOf(last)).isEqualTo("RUNNING");
        assertThat(eventTypesOf(refused)).containsExactly("JobCreated", "JobCanceled");
        assertThat(eventTypesOf(first)).containsExactly("JobCreated", "JobClaimed", "JobStarted");
    }

    /**
     * Node b changes a job that node a holds in its cache. Node a's stale copy accepts the claim, the append collides
     * with b's event at the same sequence number, and the whole batch — the good claim too — rolls back. The next
     * batch reads the job afresh: it is refused, and the other job is claimed.
     */
    @Test
    void a_batch_decided_on_a_stale_cached_job_commits_nothing_and_the_next_one_reads_afresh() {
        node.jdbc().update("UPDATE job_queue SET claimable = 0");
        String good = node.api.submit("{\"jobType\":\"noop\",\"priority\":5}");
        String moved = node.api.submit("{\"jobType\":\"noop\",\"priority\":4}");
        try (Node other = Node.start(database, "node-b", Map.of("ax.scheduler.scan.enabled", "false"))) {
            assertThat(other.api.post("/api/v1/jobs/" + moved + "/cancel", "").status()).isEqualTo(200);
        }
        node.jdbc().update("UPDATE job_queue SET status = 'WAITING', claimable = 1 WHERE job_id = ?", moved);

        assertThatThrownBy(() -> node.bean(ClaimDueJobs.class).claim(Map.of("noop", 16)));
        assertThat(statusOf(good)).isEqualTo("WAITING");
        assertThat(eventTypesOf(good)).containsExactly("JobCreated");

        var claimed = node.bean(ClaimDueJobs.class).claim(Map.of("noop", 16));

        assertThat(claimed).extracting(c -> c.jobId()).containsExactly(good);
        assertThat(eventTypesOf(moved)).containsExactly("JobCreated", "JobCanceled");
        assertThat(eventTypesOf(good)).containsExactly("JobCreated", "JobClaimed", "JobStarted");
    }

    private static String statusOf(String jobId) {
        return node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, jobId);
    }

    private static List<String> eventTypesOf(String jobId) {
        return node.jdbc().queryForList("SELECT payloadType FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                + " ORDER BY sequenceNumber", String.class, jobId).stream().map(t -> t.substring(t.lastIndexOf('.') + 1)).toList();
    }

    @Test
    void a_claim_batch_claims_by_priority_and_no_more_than_there_is_room_for() {
        node.jdbc().update("UPDATE job_queue SET claimable = 0");
        String low = node.api.submit("{\"jobType\":\"noop\",\"priority\":-1}");
        String high = node.api.submit("{\"jobType\":\"noop\",\"priority\":9}");
        String mid = node.api.submit("{\"jobType\":\"noop\",\"priority\":5}");

        var claimed = node.bean(ClaimDueJobs.class).claim(Map.of("noop", 2));

        assertThat(claimed).extracting(c -> c.jobId()).containsExactly(high, mid);
        assertThat(node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, low)).isEqualTo("WAITING");
        assertThat(node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, high)).isEqualTo("RUNNING");
    }

    @Test
    void a_job_that_waited_past_the_aging_bound_is_claimed_before_higher_priority_work() {
        node.jdbc().update("UPDATE job_queue SET claimable = 0");
        String old = node.api.submit("{\"jobType\":\"noop\",\"priority\":-100,\"runAt\":\"2020-01-01T00:00:00.000Z\"}");
        String urgent = node.api.submit("{\"jobType\":\"noop\",\"priority\":100}");

        var claimed = node.bean(ClaimDueJobs.class).claim(Map.of("noop", 1));

        assertThat(claimed).extracting(c -> c.jobId()).containsExactly(old);
        assertThat(node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, urgent)).isEqualTo("WAITING");
    }
}
