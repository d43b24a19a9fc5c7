package io.axscheduler.axonmysql.saga;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.modelling.saga.repository.AnnotatedSagaRepository;
import org.axonframework.modelling.saga.repository.inmemory.InMemorySagaStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SegmentRoutedSagaManagerTest {

    /** A job saga in miniature: started by one event, ended by another, both associated by job id alone. */
    public static class Probe {
        static final Map<String, List<String>> handled = new ConcurrentHashMap<>();

        @StartSaga
        @SagaEventHandler(associationProperty = "jobId")
        public void on(Begun event) {
            handled.computeIfAbsent(event.jobId(), id -> new ArrayList<>()).add("begun");
        }

        @EndSaga
        @SagaEventHandler(associationProperty = "jobId")
        public void on(Ended event) {
            handled.computeIfAbsent(event.jobId(), id -> new ArrayList<>()).add("ended");
        }
    }

    public record Begun(String jobId) {}

    public record Ended(String jobId) {}

    public record Unrelated(String jobId) {}

    private final InMemorySagaStore store = new InMemorySagaStore();
    private SegmentRoutedSagaManager<Probe> manager;

    @BeforeEach
    void setUp() {
        Probe.handled.clear();
        manager = new SegmentRoutedSagaManager<>(AnnotatedSagaManager.<Probe>builder()
                .sagaType(Probe.class)
                .sagaRepository(AnnotatedSagaRepository.<Probe>builder()
                        .sagaType(Probe.class)
                        .sagaStore(store)
                        .build()));
    }

    @Test
    void each_event_reaches_one_segment_which_starts_and_ends_the_jobs_saga_once() throws Exception {
        Segment[] four = Segment.computeSegments(0, 1, 2, 3);
        List<String> jobs = IntStream.range(0, 64).mapToObj(i -> "job-" + i).toList();

        for (String job : jobs) {
            offer(new Begun(job), four);
        }
        assertThat(store.size()).isEqualTo(jobs.size());
        for (String job : jobs) {
            offer(new Ended(job), four);
        }

        assertThat(Probe.handled)
                .hasSize(jobs.size())
                .allSatisfy((job, events) -> assertThat(events).containsExactly("begun", "ended"));
        assertThat(store.size()).isZero();
    }

    @Test
    void after_a_split_the_jobs_event_still_reaches_its_saga_exactly_once() throws Exception {
        Segment[] two = Segment.computeSegments(0, 1);
        Segment[] four =
                Arrays.stream(two).flatMap(s -> Arrays.stream(s.split())).toArray(Segment[]::new);
        List<String> jobs = IntStream.range(0, 64).mapToObj(i -> "job-" + i).toList();

        for (String job : jobs) {
            offer(new Begun(job), two);
        }
        for (String job : jobs) {
            offer(new Ended(job), four);
        }

        assertThat(Probe.handled).allSatisfy((job, events) -> assertThat(events).containsExactly("begun", "ended"));
        assertThat(store.size()).isZero();
    }

    @Test
    void an_event_the_saga_does_not_handle_reaches_no_segment() {
        for (Segment segment : Segment.computeSegments(0, 1, 2, 3)) {
            assertThat(manager.canHandle(GenericEventMessage.asEventMessage(new Unrelated("job-1")), segment))
                    .isFalse();
        }
    }

    @Test
    void an_events_association_is_worked_out_once_for_all_segments() {
        java.util.concurrent.atomic.AtomicInteger extractions = new java.util.concurrent.atomic.AtomicInteger();
        SegmentRoutedSagaManager<Probe> counting =
                new SegmentRoutedSagaManager<>(AnnotatedSagaManager.<Probe>builder()
                        .sagaType(Probe.class)
                        .sagaRepository(AnnotatedSagaRepository.<Probe>builder()
                                .sagaType(Probe.class)
                                .sagaStore(store)
                                .build())) {
                    @Override
                    protected java.util.Set<org.axonframework.modelling.saga.AssociationValue> extractAssociationValues(
                            EventMessage<?> event) {
                        extractions.incrementAndGet();
                        return super.extractAssociationValues(event);
                    }
                };
        Segment[] four = Segment.computeSegments(0, 1, 2, 3);
        for (String job : List.of("job-1", "job-2")) {
            EventMessage<?> event = GenericEventMessage.asEventMessage(new Begun(job));
            assertThat(Arrays.stream(four).filter(segment -> counting.canHandle(event, segment)))
                    .hasSize(1);
        }
        assertThat(extractions).hasValue(2);
    }

    @Test
    void it_names_the_payload_types_the_saga_handles_so_the_stream_may_skip_the_rest() {
        assertThat(manager.canHandleType(Begun.class)).isTrue();
        assertThat(manager.canHandleType(Ended.class)).isTrue();
        assertThat(manager.canHandleType(Unrelated.class)).isFalse();
    }

    /** A saga with a handler that takes the event message itself: Axon hands it every payload type. */
    public static class TakesMessages {
        @StartSaga
        @SagaEventHandler(associationProperty = "jobId")
        public void on(Begun event) {}

        @SagaEventHandler(associationProperty = "jobId")
        public void on(EventMessage<?> anything) {}
    }

    /** A handler found on an interface the saga implements. */
    public interface EndsJobs {
        @SagaEventHandler(associationProperty = "jobId")
        default void on(Ended event) {}
    }

    public static class WithInterfaceHandler implements EndsJobs {
        @StartSaga
        @SagaEventHandler(associationProperty = "jobId")
        public void on(Begun event) {}
    }

    @Test
    void a_handler_that_takes_a_message_takes_every_type_so_none_is_skipped() {
        assertThat(SegmentRoutedSagaManager.handledTypes(TakesMessages.class)).containsExactly(Object.class);
    }

    @Test
    void handlers_on_an_interface_count() {
        assertThat(SegmentRoutedSagaManager.handledTypes(WithInterfaceHandler.class))
                .containsExactlyInAnyOrder(Begun.class, Ended.class);
    }

    /** Offers the event to every segment, as a pooled processor does, and has exactly one of them take it. */
    private void offer(Object payload, Segment[] segments) throws Exception {
        EventMessage<?> event = GenericEventMessage.asEventMessage(payload);
        int taken = 0;
        for (Segment segment : segments) {
            if (!manager.canHandle(event, segment)) continue;
            taken++;
            DefaultUnitOfWork.startAndGet(event).executeWithResult(() -> {
                manager.handle(event, segment);
                return null;
            });
        }
        assertThat(taken).as("segments that took %s", payload).isEqualTo(1);
    }
}
