package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.ClaimJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;

/** A node that claimed a job and died before starting it: the lease runs out and the job runs, with no retry used. */
class LeaseExpiryIT {

    @Test
    void a_claim_whose_lease_expired_goes_back_to_waiting_without_using_a_retry() {
        try (Node node = Node.start(
                TestDatabase.freshDatabase("lease"), "node-a", Map.of("ax.scheduler.scan.lease-check-ms", "300"))) {
            String jobId = node.api.submit("{\"jobType\":\"noop\",\"maxRetries\":0,\"delayMs\":3600000}");
            // a ghost node claims it with a lease that is already over, then never starts it
            node.bean(CommandGateway.class)
                    .sendAndWait(new ClaimJob(jobId, "ghost-node", Instant.now().minusSeconds(1)));
            node.jdbc().update("UPDATE job_queue SET run_at = 0 WHERE job_id = ?", jobId);

            Await.until(
                    Duration.ofSeconds(20),
                    () -> "SUCCEEDED"
                            .equals(node.api.get("/api/v1/jobs/" + jobId).text("status")),
                    () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());

            List<String> types = new ArrayList<>();
            var events =
                    node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events");
            events.forEach(e -> types.add(e.path("type").asText()));
            assertThat(types)
                    .containsExactly(
                            "JobCreated", "JobClaimed", "JobTimedOut", "JobClaimed", "JobStarted", "JobSucceeded");
            assertThat(events.get(2).path("payload").path("phase").asText()).isEqualTo("CLAIM");
            assertThat(events.get(4).path("payload").path("attempt").asInt()).isEqualTo(1);
            assertThat(events.get(4).path("payload").path("node").asText()).isEqualTo("node-a");
        }
    }
}
