package io.axscheduler.deploy;

import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.scheduler.saga.JobLifecycleSaga;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The node's saga store answers a batch's association lookups from one query, with what the per-event query says. */
class SagaStoreIT {

    @Test
    @SuppressWarnings("unchecked")
    void lookups_inside_a_batch_and_outside_it_find_the_stored_sagas() throws Exception {
        try (Node node = Node.start(TestDatabase.freshDatabase("saga_store"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            SagaStore<Object> store = node.bean(SagaStore.class);
            store.insertSaga(JobLifecycleSaga.class, "saga-a", new JobLifecycleSaga(), Set.of(job("a")));
            store.insertSaga(JobLifecycleSaga.class, "saga-c", new JobLifecycleSaga(), Set.of(job("c")));
            store.insertSaga(JobLifecycleSaga.class, "saga-a2", new JobLifecycleSaga(), Set.of(job("a")));
            List<EventMessage<?>> batch = List.of(
                    GenericEventMessage.asEventMessage(new JobStarted("a", 1, "node-a", "in-process", 1_000, RetryPolicy.defaults())),
                    GenericEventMessage.asEventMessage(new JobSucceeded("b", 1, null, 1, "in-process")));

            List<Set<String>> found = new BatchingUnitOfWork<>(batch).executeWithResult(() -> List.of(
                    store.findSagas(JobLifecycleSaga.class, job("a")),
                    store.findSagas(JobLifecycleSaga.class, job("b")),
                    store.findSagas(JobLifecycleSaga.class, job("c")))).getPayload();

            assertThat(found.get(0)).containsExactly("saga-a", "saga-a2");
            assertThat(found.get(1)).isEmpty();
            assertThat(found.get(2)).as("a value the batch did not carry is read on its own").containsExactly("saga-c");
            assertThat(store.findSagas(JobLifecycleSaga.class, job("a"))).containsExactly("saga-a", "saga-a2");
        }
    }

    private static AssociationValue job(String jobId) {
        return new AssociationValue("jobId", jobId);
    }
}
