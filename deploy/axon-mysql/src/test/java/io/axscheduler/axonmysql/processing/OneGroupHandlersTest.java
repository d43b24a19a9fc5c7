package io.axscheduler.axonmysql.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.SimpleEventHandlerInvoker;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.junit.jupiter.api.Test;

/** One group gets what the processor accepted, asked once; the answers and the replay rule are Axon's. */
class OneGroupHandlersTest {

    record Created(String id) {}

    record Other(String id) {}

    /** A projection that counts how often its handlers are asked about and given an event. */
    static class Projection {
        final List<String> handled = new ArrayList<>();

        @EventHandler
        void on(Created e) {
            handled.add(e.id());
        }
    }

    /** A projection that is not rebuilt by replaying: its group cannot be reset. */
    static class NoReplays {
        final List<String> handled = new ArrayList<>();

        @EventHandler
        @DisallowReplay
        void on(Created e) {
            handled.add(e.id());
        }
    }

    /** Axon's invoker for the projection, counting the asks. */
    static final class Counting extends SimpleEventHandlerInvoker {
        int asked;

        Counting(SimpleEventHandlerInvoker.Builder<?> builder) {
            super(builder);
        }

        @Override
        public boolean canHandle(EventMessage<?> eventMessage, Segment segment) {
            asked++;
            return super.canHandle(eventMessage, segment);
        }
    }

    private final Projection projection = new Projection();
    private final Counting group =
            new Counting(SimpleEventHandlerInvoker.builder().eventHandlers(projection));
    private final MultiEventHandlerInvoker axons = new MultiEventHandlerInvoker(group);

    @Test
    void one_group_answers_as_axons_invoker_and_is_given_an_accepted_event_without_a_second_ask() throws Exception {
        EventHandlerInvoker one = OneGroupHandlers.wrap(axons);
        EventMessage<?> created = GenericEventMessage.asEventMessage(new Created("a"));
        EventMessage<?> other = GenericEventMessage.asEventMessage(new Other("b"));

        assertThat(one).isInstanceOf(OneGroupHandlers.class);
        assertThat(((MultiEventHandlerInvoker) one).delegates()).containsExactly(group);
        assertThat(one.canHandle(created, Segment.ROOT_SEGMENT))
                .isEqualTo(axons.canHandle(created, Segment.ROOT_SEGMENT));
        assertThat(one.canHandle(other, Segment.ROOT_SEGMENT)).isEqualTo(axons.canHandle(other, Segment.ROOT_SEGMENT));
        assertThat(one.canHandleType(Created.class)).isEqualTo(axons.canHandleType(Created.class));
        assertThat(one.supportsReset()).isEqualTo(axons.supportsReset());

        group.asked = 0;
        assertThat(one.canHandle(created, Segment.ROOT_SEGMENT)).isTrue();
        one.handle(created, Segment.ROOT_SEGMENT);
        assertThat(group.asked).isEqualTo(1);
        assertThat(projection.handled).containsExactly("a");

        group.asked = 0;
        axons.handle(created, Segment.ROOT_SEGMENT);
        assertThat(group.asked).as("Axon's own asks again").isEqualTo(1);
    }

    @Test
    void a_group_that_cannot_be_reset_sees_no_replayed_event() throws Exception {
        NoReplays noReplays = new NoReplays();
        EventHandlerInvoker fixed =
                SimpleEventHandlerInvoker.builder().eventHandlers(noReplays).build();
        assertThat(fixed.supportsReset()).isFalse();
        EventHandlerInvoker one = OneGroupHandlers.wrap(new MultiEventHandlerInvoker(fixed));
        TrackedEventMessage<?> replayed = new GenericTrackedEventMessage<>(
                ReplayToken.createReplayToken(new GlobalSequenceTrackingToken(10), new GlobalSequenceTrackingToken(1)),
                GenericEventMessage.asEventMessage(new Created("r")));

        assertThat(ReplayToken.isReplay(replayed)).isTrue();
        assertThat(one.canHandle(replayed, Segment.ROOT_SEGMENT)).isFalse();
        one.handle(replayed, Segment.ROOT_SEGMENT);
        assertThat(noReplays.handled).isEmpty();
    }

    @Test
    void several_groups_or_none_stay_axons() {
        MultiEventHandlerInvoker two = new MultiEventHandlerInvoker(
                group,
                SimpleEventHandlerInvoker.builder()
                        .eventHandlers(new Projection())
                        .build());
        assertThat(OneGroupHandlers.wrap(two)).isSameAs(two);
        assertThat(OneGroupHandlers.wrap(group)).isSameAs(group);
        EventHandlerInvoker one = OneGroupHandlers.wrap(axons);
        assertThat(OneGroupHandlers.wrap(one)).isSameAs(one);
    }
}
