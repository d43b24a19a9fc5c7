package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.axonmysql.eventstore.CoalescedReaderWakes;
import io.axscheduler.axonmysql.messaging.CachedCommandTargets;
import io.axscheduler.axonmysql.messaging.KnownTypesSerializer;
import io.axscheduler.axonmysql.messaging.OriginAndCarriedKeys;
import io.axscheduler.axonmysql.processing.TrimmedHandlersProcessing;
import io.axscheduler.axonmysql.saga.BatchLookupSagaStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.EventBus;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * With every engine tweak switched off (ax.axon.*), the node runs on Axon's own event store, reader, queues and saga
 * store, and still runs jobs end to end: each tweak is an optimisation, never a condition of correctness.
 */
class EngineTweaksOffIT {

    @Test
    void a_node_with_every_engine_tweak_off_runs_jobs_and_their_retries() {
        String db = TestDatabase.freshDatabase("tweaks_off");
        Map<String, String> off = Map.ofEntries(
                Map.entry("ax.axon.multi-row-appends", "false"),
                Map.entry("ax.axon.reads-outside-transactions", "false"),
                Map.entry("ax.axon.reader-wake-ms", "0"),
                Map.entry("ax.axon.counted-work-queues", "false"),
                Map.entry("ax.axon.metadata-reader", "false"),
                Map.entry("ax.axon.saga-batch-lookups", "false"),
                Map.entry("ax.axon.saga-segment-routing", "false"),
                Map.entry("ax.axon.type-matched-handlers", "false"),
                Map.entry("ax.axon.cached-command-targets", "false"),
                Map.entry("ax.axon.correlation-in-one", "false"),
                Map.entry("ax.axon.reader-below-own-appends", "false"),
                Map.entry("ax.axon.plain-results", "false"),
                Map.entry("ax.axon.known-types", "false"),
                Map.entry("ax.axon.one-group-handlers", "false"));
        try (Node node = Node.start(db, "node-off", off)) {
            assertThat(node.bean(EventBus.class)).isNotInstanceOf(CoalescedReaderWakes.class);
            assertThat(node.bean(SagaStore.class)).isNotInstanceOf(BatchLookupSagaStore.class);
            assertThat(node.bean(EventProcessingModule.class)).isNotInstanceOf(TrimmedHandlersProcessing.class);
            assertThat(node.bean(CommandTargetResolver.class)).isNotInstanceOf(CachedCommandTargets.class);
            assertThat(node.bean(Serializer.class)).isNotInstanceOf(KnownTypesSerializer.class);
            assertThat(node.context
                            .getBeansOfType(CorrelationDataProvider.class)
                            .values())
                    .noneMatch(OriginAndCarriedKeys.class::isInstance)
                    .hasAtLeastOneElementOfType(MessageOriginProvider.class);

            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 50; i++) ids.add(node.api.submit("{\"jobType\":\"count\"}"));
            String flaky = node.api.submit(
                    "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"backoff\":{\"delaysMs\":[100]}}");
            ids.add(flaky);

            Await.until(
                    Duration.ofSeconds(60),
                    () -> ids.stream()
                            .allMatch(id -> "SUCCEEDED"
                                    .equals(node.api.get("/api/v1/jobs/" + id).text("status"))),
                    () -> node.jdbc()
                            .queryForList("SELECT status, COUNT(*) n FROM job_queue GROUP BY status")
                            .toString());
            assertThat(node.api
                            .get("/api/v1/jobs/" + flaky)
                            .body()
                            .path("attempt")
                            .asInt())
                    .isEqualTo(2);
        }
    }
}
