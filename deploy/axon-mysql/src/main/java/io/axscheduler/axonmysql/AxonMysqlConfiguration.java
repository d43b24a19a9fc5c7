package io.axscheduler.axonmysql;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.axonmysql.eventstore.CoalescedReaderWakes;
import io.axscheduler.axonmysql.eventstore.JdbcEventTable;
import io.axscheduler.axonmysql.eventstore.ReadsOutsideTransactions;
import io.axscheduler.axonmysql.messaging.CachedCommandTargets;
import io.axscheduler.axonmysql.messaging.KnownTypesSerializer;
import io.axscheduler.axonmysql.messaging.MetaDataReader;
import io.axscheduler.axonmysql.messaging.PlainResults;
import io.axscheduler.axonmysql.processing.CountedWorkQueues;
import io.axscheduler.axonmysql.processing.TrimmedHandlersProcessing;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.EventBusSpanFactory;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcSQLErrorCodesResolver;
import org.axonframework.lifecycle.Phase;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.serialization.ChainingConverter;
import org.axonframework.serialization.RevisionResolver;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * The one place the engine tweaks are wired into Axon: the event store, its reader, the processors' work queues, the
 * serializers' metadata reading. Each is switched by {@link AxonMysqlProperties}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AxonMysqlProperties.class)
public class AxonMysqlConfiguration {

    /**
     * Axon's JDBC event store as its Spring Boot starter builds it, with the starter's default schema and
     * {@link JdbcSQLErrorCodesResolver} (a resolver bean of its own would not reach it).
     */
    @Bean
    EventStorageEngine eventStorageEngine(
            Serializer defaultSerializer,
            @Qualifier("eventSerializer") Serializer eventSerializer,
            org.axonframework.config.Configuration axon,
            ConnectionProvider connections,
            TransactionManager transactions,
            AxonMysqlProperties tweaks) {
        return new JdbcEventTable(
                JdbcEventStorageEngine.builder()
                        .snapshotSerializer(defaultSerializer)
                        .upcasterChain(axon.upcasterChain())
                        .persistenceExceptionResolver(new JdbcSQLErrorCodesResolver())
                        .eventSerializer(eventSerializer)
                        .snapshotFilter(axon.snapshotFilter())
                        .connectionProvider(connections)
                        .schema(new EventSchema()),
                tweaks.readsOutsideTransactions() ? new ReadsOutsideTransactions(transactions) : transactions,
                tweaks.multiRowAppends(),
                tweaks.readerBelowOwnAppends());
    }

    /** Axon's embedded event store, whose reader wakes at most once per {@code ax.axon.reader-wake-ms} of commits. */
    @Qualifier("eventStore")
    @Bean(name = "eventBus")
    EmbeddedEventStore eventStore(
            EventStorageEngine storageEngine, org.axonframework.config.Configuration axon, AxonMysqlProperties tweaks) {
        EmbeddedEventStore.Builder builder = EmbeddedEventStore.builder()
                .storageEngine(storageEngine)
                .messageMonitor(axon.messageMonitor(EventStore.class, "eventStore"))
                .spanFactory(axon.getComponent(EventBusSpanFactory.class));
        return tweaks.readerWakeMs() == 0 ? builder.build() : new CoalescedReaderWakes(builder, tweaks.readerWakeMs());
    }

    /**
     * Axon's event processing module, or the one whose subscribing processors skip groups without a handler for an
     * event's payload type by a map lookup and whose one-group processors do not ask a group twice
     * ({@link TrimmedHandlersProcessing}). Axon's Spring Boot starter makes the
     * plain module only when no other is declared.
     */
    @Bean
    EventProcessingModule eventProcessingModule(AxonMysqlProperties tweaks) {
        return tweaks.typeMatchedHandlers() || tweaks.oneGroupHandlers()
                ? new TrimmedHandlersProcessing(tweaks.typeMatchedHandlers(), tweaks.oneGroupHandlers())
                : new EventProcessingModule();
    }

    /**
     * How every aggregate finds a command's target: Axon's annotation resolver, or the same answer from members looked
     * up once per command class ({@link CachedCommandTargets}). Axon's aggregate configuration takes a bean of this type
     * when there is one.
     */
    @Bean
    CommandTargetResolver commandTargetResolver(AxonMysqlProperties tweaks) {
        return tweaks.cachedCommandTargets()
                ? new CachedCommandTargets()
                : AnnotationCommandTargetResolver.builder().build();
    }

    /**
     * What command and event handlers return reaches Axon as result messages made without correlation data
     * ({@link PlainResults}): on the command bus, and on every event processor as a default interceptor (inside any a
     * processor registers for itself, outside Axon's correlation interceptor).
     */
    @Bean
    ConfigurerModule plainResults(AxonMysqlProperties tweaks) {
        return configurer -> {
            if (!tweaks.plainResults()) return;
            PlainResults plain = new PlainResults();
            configurer.eventProcessing().registerDefaultHandlerInterceptor((axon, processor) -> plain);
            configurer.onInitialize(axon -> axon.onStart(
                    Phase.LOCAL_MESSAGE_HANDLER_REGISTRATIONS,
                    () -> axon.commandBus().registerHandlerInterceptor(plain)));
        };
    }

    /**
     * Every pooled processor's work packages get queues that count themselves, one phase before the processors start
     * (they start in {@code INBOUND_EVENT_CONNECTORS}).
     */
    @Bean
    ConfigurerModule countWorkQueues(AxonMysqlProperties tweaks) {
        return configurer -> {
            if (!tweaks.countedWorkQueues()) return;
            configurer.onInitialize(axon -> axon.onStart(
                    Phase.INBOUND_EVENT_CONNECTORS - 1,
                    () -> axon.eventProcessingConfiguration().eventProcessors().values().stream()
                            .filter(PooledStreamingEventProcessor.class::isInstance)
                            .forEach(p -> CountedWorkQueues.install((PooledStreamingEventProcessor) p))));
        };
    }

    /**
     * The one serializer of payloads, metadata, messages and events, as Axon's Spring Boot starter builds it for
     * {@code axon.serializer.*: jackson} (the node's settings) on the application's object mapper, but finding the
     * class of a serialized type once per name ({@link KnownTypesSerializer}). The starter makes no general serializer
     * of its own when this bean exists, and its message and event serializers are this one when all three settings
     * are Jackson. Off ({@code ax.axon.known-types: false}, also the way to another {@code axon.serializer.general}),
     * the starter builds its own.
     */
    @Bean
    @Primary
    @ConditionalOnProperty(name = "ax.axon.known-types", havingValue = "true", matchIfMissing = true)
    Serializer serializer(RevisionResolver revisionResolver, ObjectMapper objectMapper) {
        return new KnownTypesSerializer(JacksonSerializer.builder()
                .revisionResolver(revisionResolver)
                .converter(new ChainingConverter(AxonMysqlConfiguration.class.getClassLoader()))
                .objectMapper(objectMapper));
    }

    /**
     * Axon's Jackson serializers read metadata through {@link MetaDataReader}: registered after Axon registered its own
     * deserializer on the same mapper (in the serializer's constructor), it comes first. Static: a post-processor is
     * made before the configuration it is declared in, so it reads the switch from the environment.
     */
    @Bean
    static BeanPostProcessor readMetaDataWithOneLookup(Environment environment) {
        boolean on = environment.getProperty("ax.axon.metadata-reader", Boolean.class, true);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (on && bean instanceof JacksonSerializer jackson)
                    jackson.getObjectMapper().registerModule(MetaDataReader.module());
                return bean;
            }
        };
    }
}
