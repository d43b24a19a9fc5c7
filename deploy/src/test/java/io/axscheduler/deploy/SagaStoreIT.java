package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.axonmysql.processing.CountedWorkQueues;
import io.axscheduler.axonmysql.saga.BatchLookupSagaStore;
import io.axscheduler.axonmysql.saga.SegmentRoutedSagaManager;
import io.axscheduler.scheduler.lifecycle.JobLifecycleSaga;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.config.Configuration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.metamodel.AnnotationSagaMetaModelFactory;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.GenericSagaSqlSchema;
import org.axonframework.modelling.saga.repository.jdbc.JdbcSagaStore;
import org.axonframework.modelling.saga.repository.jdbc.SagaSchema;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * The node's saga store answers a batch's association lookups from one query, with what the per-event query says; its
 * saga manager hands each event to one segment, through work queues that count themselves.
 */
class SagaStoreIT {

    @Test
    @SuppressWarnings("unchecked")
    void lookups_inside_a_batch_and_outside_it_find_the_stored_sagas() throws Exception {
        try (Node node = Node.start(
                TestDatabase.freshDatabase("saga_store"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            SagaStore<Object> store = node.bean(SagaStore.class);
            store.insertSaga(JobLifecycleSaga.class, "saga-a", new JobLifecycleSaga(), Set.of(job("a")));
            store.insertSaga(JobLifecycleSaga.class, "saga-c", new JobLifecycleSaga(), Set.of(job("c")));
            store.insertSaga(JobLifecycleSaga.class, "saga-a2", new JobLifecycleSaga(), Set.of(job("a")));
            List<EventMessage<?>> batch = List.of(
                    GenericEventMessage.asEventMessage(
                            new JobStarted("a", 1, "node-a", "in-process", 1_000, RetryPolicy.defaults())),
                    GenericEventMessage.asEventMessage(new JobSucceeded("b", 1, null, 1, "in-process")));

            List<Set<String>> found = new BatchingUnitOfWork<>(batch)
                    .executeWithResult(() -> List.of(
                            store.findSagas(JobLifecycleSaga.class, job("a")),
                            store.findSagas(JobLifecycleSaga.class, job("b")),
                            store.findSagas(JobLifecycleSaga.class, job("c"))))
                    .getPayload();

            assertThat(found.get(0)).containsExactly("saga-a", "saga-a2");
            assertThat(found.get(1)).isEmpty();
            assertThat(found.get(2))
                    .as("a value the batch did not carry is read on its own")
                    .containsExactly("saga-c");
            assertThat(store.findSagas(JobLifecycleSaga.class, job("a"))).containsExactly("saga-a", "saga-a2");

            // the same store around a delegate that records what it is asked: inside the batch (whose work runs once
            // per
            // event) only the value the batch did not carry reaches it, never the ones the batch's one query answered
            List<AssociationValue> askedOneByOne = new ArrayList<>();
            SagaStore<Object> counted = new BatchLookupSagaStore(
                    countingFindSagas(node, askedOneByOne),
                    node.bean(ConnectionProvider.class),
                    node.bean(Serializer.class),
                    new SagaSchema(),
                    () -> new AnnotationSagaMetaModelFactory(
                            node.bean(Configuration.class).parameterResolverFactory(),
                            node.bean(Configuration.class).handlerDefinition(JobLifecycleSaga.class)));
            new BatchingUnitOfWork<>(batch).execute(() -> {
                assertThat(counted.findSagas(JobLifecycleSaga.class, job("a"))).containsExactly("saga-a", "saga-a2");
                assertThat(counted.findSagas(JobLifecycleSaga.class, job("b"))).isEmpty();
                assertThat(counted.findSagas(JobLifecycleSaga.class, job("c"))).containsExactly("saga-c");
            });
            assertThat(askedOneByOne).isNotEmpty().containsOnly(job("c"));
        }
    }

    @Test
    void the_job_saga_gets_each_event_in_the_one_segment_its_job_id_hashes_to() throws Exception {
        try (Node node = Node.start(
                TestDatabase.freshDatabase("saga_manager"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            var saga = node.bean(Configuration.class)
                    .eventProcessingConfiguration()
                    .sagaConfiguration(JobLifecycleSaga.class);
            var manager = saga.manager();
            EventMessage<?> started = GenericEventMessage.asEventMessage(
                    new JobStarted("a", 1, "node-a", "in-process", 1_000, RetryPolicy.defaults()));

            assertThat(manager).isInstanceOf(SegmentRoutedSagaManager.class);
            assertThat(saga.store())
                    .as("the re-registered saga keeps the node's store")
                    .isInstanceOf(BatchLookupSagaStore.class);
            assertThat(Segment.computeSegments(0, 1, 2, 3))
                    .filteredOn(segment -> manager.canHandle(started, segment))
                    .hasSize(1);
        }
    }

    @Test
    void the_job_saga_processor_hands_events_to_its_segments_through_counted_queues() {
        try (Node node = Node.start(
                TestDatabase.freshDatabase("saga_queues"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            PooledStreamingEventProcessor processor = node.bean(Configuration.class)
                    .eventProcessingConfiguration()
                    .eventProcessor(JobLifecycleSaga.PROCESSING_GROUP, PooledStreamingEventProcessor.class)
                    .orElseThrow();
            Await.until(
                    Duration.ofSeconds(30),
                    () -> queuesOf(processor).size() == 4,
                    () -> queuesOf(processor).size() + " segments claimed");

            assertThat(queuesOf(processor).values())
                    .allSatisfy(queue -> assertThat(queue).isInstanceOf(LinkedBlockingQueue.class));
        }
    }

    private static Map<Integer, Queue<?>> queuesOf(PooledStreamingEventProcessor processor) {
        try {
            return CountedWorkQueues.queues(processor);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Axon's JDBC store on the node's database, recording which association values it was asked for. */
    private static SagaStore<Object> countingFindSagas(Node node, List<AssociationValue> asked) {
        JdbcSagaStore.Builder builder = JdbcSagaStore.builder()
                .connectionProvider(node.bean(ConnectionProvider.class))
                .sqlSchema(new GenericSagaSqlSchema(new SagaSchema()))
                .serializer(node.bean(Serializer.class));
        return new JdbcSagaStore(builder) {
            @Override
            public Set<String> findSagas(Class<?> sagaType, AssociationValue associationValue) {
                asked.add(associationValue);
                return super.findSagas(sagaType, associationValue);
            }
        };
    }

    private static AssociationValue job(String jobId) {
        return new AssociationValue("jobId", jobId);
    }
}
