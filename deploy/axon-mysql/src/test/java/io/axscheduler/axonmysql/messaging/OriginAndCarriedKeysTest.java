package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.junit.jupiter.api.Test;

/** One provider answers what Axon's origin provider and a provider of the carried keys answer together. */
class OriginAndCarriedKeysTest {

    private final List<CorrelationDataProvider> axon =
            List.of(new MessageOriginProvider(), new SimpleCorrelationDataProvider("actor", "node"));
    private final OriginAndCarriedKeys one = new OriginAndCarriedKeys("actor", "node");

    private Map<String, Object> axonAnswer(Message<?> message) {
        Map<String, Object> all = new HashMap<>();
        axon.forEach(provider -> all.putAll(provider.correlationDataFor(message)));
        return all;
    }

    @Test
    void answers_as_axons_two_providers_together() {
        for (MetaData metaData : List.of(
                MetaData.emptyInstance(),
                MetaData.with("actor", "key:ops"),
                MetaData.with("actor", "key:ops").and("node", "node-a").and("traceId", "t-1"),
                MetaData.with("traceId", "t-2").and("other", "not carried"))) {
            Message<?> message = GenericEventMessage.asEventMessage("payload").andMetaData(metaData);
            assertThat(one.correlationDataFor(message)).as(metaData.toString()).isEqualTo(axonAnswer(message));
        }
    }

    @Test
    void the_same_message_gets_the_same_answer_and_another_message_its_own() {
        Message<?> first = GenericEventMessage.asEventMessage("a").andMetaData(MetaData.with("actor", "x"));
        Message<?> second = GenericEventMessage.asEventMessage("a").andMetaData(MetaData.with("actor", "y"));
        Map<String, Object> answer = Map.copyOf(one.correlationDataFor(first));
        assertThat(answer).containsEntry("actor", "x");
        Map<String, ?> same = one.correlationDataFor(first);
        assertThat(one.correlationDataFor(first)).isSameAs(same);
        Map<String, Object> other = Map.copyOf(one.correlationDataFor(second));
        assertThat(other).containsEntry("actor", "y").containsEntry("correlationId", second.getIdentifier());
        Map<String, Object> again = Map.copyOf(one.correlationDataFor(first));
        assertThat(again).isEqualTo(answer).containsEntry("actor", "x");
    }
}
