package io.axscheduler.query.stream;

import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.tokenstore.inmemory.InMemoryTokenStore;
import org.axonframework.messaging.StreamableMessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The console-stream processor: every node reads every committed event, from the head of the store at its start
 * (a stream is about now), with its tokens in memory (no other node shares them, and nothing is worth keeping over a
 * restart) and no database transaction around its batches (it writes nothing).
 */
@Configuration(proxyBeanMethods = false)
class StreamProcessorSetup {

    @Bean
    ConfigurerModule consoleStreamProcessor() {
        return configurer -> configurer
                .eventProcessing()
                .registerTokenStore(ChangeStream.PROCESSING_GROUP, c -> new InMemoryTokenStore())
                .registerTransactionManager(ChangeStream.PROCESSING_GROUP, c -> NoTransactionManager.INSTANCE)
                .registerPooledStreamingEventProcessor(
                        ChangeStream.PROCESSING_GROUP,
                        org.axonframework.config.Configuration::eventStore,
                        (c, builder) -> builder.initialSegmentCount(1)
                                .maxClaimedSegments(1)
                                .initialToken(StreamableMessageSource::createHeadToken));
    }
}
