package io.axscheduler.deploy;

import io.axscheduler.api.problem.IllegalTransitionException;
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
 * the outer commit reported success: the claims before it silently vanished. A batch must be all or nothing.
 */
class ClaimBatchIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(TestDatabase.freshDatabase("claim_batch"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void a_claim_batch_is_rolled_back_whole_when_one_claim_is_refused() {
        String first = node.api.submit("{\"jobType\":\"noop\",\"priority\":3}");
        String refused = node.api.submit("{\"jobType\":\"noop\",\"priority\":2}");
        String last = node.api.submit("{\"jobType\":\"noop\",\"priority\":1}");
        node.api.post("/api/v1/jobs/" + refused + "/cancel", "");
        // make the read model lie about the canceled job, so its ClaimJob is refused by the aggregate mid-batch
        node.jdbc().update("UPDATE job_queue SET status = 'WAITING', claimable = 1 WHERE job_id = ?", refused);

        assertThatThrownBy(() -> node.bean(ClaimDueJobs.class).claim(Map.of("noop", 16)))
                .isInstanceOf(IllegalTransitionException.class);

        for (String jobId : List.of(first, refused, last)) {
            assertThat(node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, jobId))
                    .isEqualTo("WAITING");
        }
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%JobClaimed'",
                Integer.class)).isZero();
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
        assertThat(node.jdbc().queryForObject("SELECT status FROM job_queue WHERE job_id = ?", String.class, high)).isEqualTo("CLAIMED");
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
