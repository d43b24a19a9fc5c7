package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle saga reads the store behind the jobs: by the time it sees a start, the attempt may have ended. With
 * one event per saga batch (so no start has its end in the same batch) and the saga stopped while the jobs run, a
 * succeeded attempt needs nothing more from it, and a failed one is still retried by its policy.
 */
class SagaBehindIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("saga_behind"),
                "node-a",
                Map.of("axon.eventhandling.processors.job-lifecycle.batch-size", "1"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    private static EventProcessor saga() {
        return node.context
                .getBean(EventProcessingConfiguration.class)
                .eventProcessor("job-lifecycle")
                .orElseThrow();
    }

    @Test
    void a_saga_behind_the_jobs_still_retries_a_failed_attempt_and_keeps_nothing_for_a_succeeded_one() {
        saga().shutDown();
        String succeeds = node.api.submit("{\"jobType\":\"noop\"}");
        String failsOnce = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":2,\"backoff\":{\"delaysMs\":[100]}}");
        node.api.awaitStatus(succeeds, "SUCCEEDED");
        node.api.awaitStatus(failsOnce, "FAILED");

        saga().start();
        node.api.awaitStatus(failsOnce, "SUCCEEDED");
        assertThat(node.api
                        .get("/api/v1/jobs/" + failsOnce)
                        .body()
                        .path("attempt")
                        .asInt())
                .isEqualTo(2);
        Await.until(
                Duration.ofSeconds(10),
                () -> node.jdbc().queryForObject("SELECT COUNT(*) FROM SagaEntry", Integer.class) == 0,
                () -> "sagas left: " + node.jdbc().queryForList("SELECT sagaId FROM SagaEntry"));
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM AssociationValueEntry WHERE associationValue IN (?, ?)",
                                Integer.class,
                                succeeds,
                                failsOnce))
                .isZero();
    }
}
