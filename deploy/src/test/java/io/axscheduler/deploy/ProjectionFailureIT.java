package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With Axon's default error handler a failing projection is logged and skipped: the event is stored and job_queue,
 * which the scanner reads, silently diverges. Here the failure must fail the command and write nothing.
 */
class ProjectionFailureIT {

    @Test
    void a_failing_job_queue_projection_fails_the_command_and_nothing_is_stored() {
        try (Node node = Node.start(
                TestDatabase.freshDatabase("projection_failure"),
                "node-a",
                Map.of("ax.scheduler.scan.enabled", "false"))) {
            // the projection's INSERT of a job with priority 999 now fails inside the command's transaction
            node.jdbc().execute("ALTER TABLE job_queue ADD CONSTRAINT no_999 CHECK (priority <> 999)");
            // the start-up's own events (the bootstrap admin's key and user) are there already
            Integer events = node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Integer.class);

            var answer = node.api.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"priority\":999,\"jobKey\":\"doomed\"}");

            assertThat(answer.status()).isEqualTo(500);
            assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Integer.class))
                    .isEqualTo(events);
            assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM job_keys", Integer.class))
                    .isZero();
            assertThat(node.api
                            .post("/api/v1/jobs", "{\"jobType\":\"noop\",\"priority\":998}")
                            .status())
                    .isEqualTo(201);
        }
    }
}
