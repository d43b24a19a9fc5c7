package io.axscheduler.deploy;

import io.axscheduler.api.Metadata;
import io.axscheduler.scheduler.saga.BatchLookupSagaStore;
import io.axscheduler.scheduler.saga.JobLifecycleSaga;
import io.axscheduler.scheduler.saga.SegmentRoutedSagaManager;
import java.util.Map;
import javax.sql.DataSource;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.Registration;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventBusSpanFactory;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcSQLErrorCodesResolver;
import org.axonframework.lifecycle.Phase;
import org.axonframework.messaging.MessageDispatchInterceptor;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.SagaManagerSpanFactory;
import org.axonframework.modelling.saga.metamodel.AnnotationSagaMetaModelFactory;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.GenericSagaSqlSchema;
import org.axonframework.modelling.saga.repository.jdbc.JdbcSagaStore;
import org.axonframework.modelling.saga.repository.jdbc.SagaSchema;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Axon on the node's own database, with the traps of DESIGN.md closed. Kept apart from beans that inject a
 * CommandGateway: mixing them in one configuration class makes a bean cycle.
 */
@Configuration(proxyBeanMethods = false)
class AxonSetup {

    /**
     * A plain Spring connection provider. Axon's default wraps it in a unit-of-work-aware provider that rolls the
     * shared connection back when one command of a batch fails — the claims before it vanished while the outer
     * commit still reported success.
     */
    @Bean
    ConnectionProvider connectionProvider(DataSource dataSource) {
        return new SpringDataSourceConnectionProvider(dataSource);
    }

    /**
     * Axon's JDBC event store as its Spring Boot starter builds it, with the starter's default schema and
     * {@link JdbcSQLErrorCodesResolver} (a resolver bean of its own would not reach it), but for the transaction
     * manager: reads outside a transaction stay outside one (see {@link ReadsOutsideTransactions}); and a unit of
     * work's events go in multi-row INSERTs (see {@link JdbcEventTable}).
     */
    @Bean
    EventStorageEngine eventStorageEngine(
            Serializer defaultSerializer,
            @Qualifier("eventSerializer") Serializer eventSerializer,
            org.axonframework.config.Configuration axon,
            ConnectionProvider connections,
            TransactionManager transactions) {
        return new JdbcEventTable(
                JdbcEventStorageEngine.builder()
                        .snapshotSerializer(defaultSerializer)
                        .upcasterChain(axon.upcasterChain())
                        .persistenceExceptionResolver(new JdbcSQLErrorCodesResolver())
                        .eventSerializer(eventSerializer)
                        .snapshotFilter(axon.snapshotFilter())
                        .connectionProvider(connections)
                        .schema(new EventSchema()),
                new ReadsOutsideTransactions(transactions));
    }

    /**
     * Axon's embedded event store, whose reader wakes once per {@code ax.events.reader-wake-ms} of commits instead of
     * once per commit (see {@link CoalescedReaderWakes}); 0 wakes it per commit, as Axon does.
     */
    @Qualifier("eventStore")
    @Bean(name = "eventBus")
    EmbeddedEventStore eventStore(
            EventStorageEngine storageEngine,
            org.axonframework.config.Configuration axon,
            @Value("${ax.events.reader-wake-ms:20}") long wakeDelayMs) {
        if (wakeDelayMs < 0 || wakeDelayMs > 1000)
            throw new IllegalArgumentException("ax.events.reader-wake-ms must be 0..1000");
        return new CoalescedReaderWakes(
                EmbeddedEventStore.builder()
                        .storageEngine(storageEngine)
                        .messageMonitor(axon.messageMonitor(EventStore.class, "eventStore"))
                        .spanFactory(axon.getComponent(EventBusSpanFactory.class)),
                wakeDelayMs);
    }

    /**
     * Axon's JDBC saga store, with the association lookups of a batch of events read in one query instead of one per
     * event and segment (see {@link BatchLookupSagaStore}).
     */
    @Bean
    SagaStore<Object> sagaStore(
            ConnectionProvider connections,
            Serializer serializer,
            ObjectProvider<org.axonframework.config.Configuration> axon) {
        SagaSchema schema = new SagaSchema();
        SagaStore<Object> jdbc = JdbcSagaStore.builder()
                .connectionProvider(connections)
                .sqlSchema(new GenericSagaSqlSchema(schema))
                .serializer(serializer)
                .build();
        return new BatchLookupSagaStore(
                jdbc,
                connections,
                serializer,
                schema,
                () -> new AnnotationSagaMetaModelFactory(
                        axon.getObject().parameterResolverFactory(),
                        axon.getObject().handlerDefinition(JobLifecycleSaga.class)));
    }

    /**
     * The job saga's events each go to the one segment their job id hashes to, not to all of them (see
     * {@link SegmentRoutedSagaManager}). Registered after Spring's registration of the {@code @Saga} types, which it
     * replaces; everything but the manager is Axon's default.
     */
    @Bean
    ConfigurerModule routeSagaEventsBySegment() {
        return new ConfigurerModule() {
            @Override
            public void configureModule(Configurer configurer) {
                configurer
                        .eventProcessing()
                        .registerSaga(
                                JobLifecycleSaga.class,
                                saga -> saga.configureSagaManager(c -> {
                                    EventProcessingConfiguration processing = c.eventProcessingConfiguration();
                                    return new SegmentRoutedSagaManager<>(
                                            AnnotatedSagaManager.<JobLifecycleSaga>builder()
                                                    .sagaType(JobLifecycleSaga.class)
                                                    .sagaRepository(processing
                                                            .sagaConfiguration(JobLifecycleSaga.class)
                                                            .repository())
                                                    .parameterResolverFactory(c.parameterResolverFactory())
                                                    .handlerDefinition(c.handlerDefinition(JobLifecycleSaga.class))
                                                    .listenerInvocationErrorHandler(
                                                            processing.listenerInvocationErrorHandler(
                                                                    JobLifecycleSaga.PROCESSING_GROUP))
                                                    .spanFactory(c.getComponent(SagaManagerSpanFactory.class)));
                                }));
            }

            @Override
            public int order() {
                return 1;
            }
        };
    }

    /**
     * Every pooled processor's work packages get queues that count themselves (see {@link CountedWorkQueues}), one
     * phase before the processors start (they start in {@code INBOUND_EVENT_CONNECTORS}).
     */
    @Bean
    ConfigurerModule countWorkQueues() {
        return configurer -> configurer.onInitialize(axon -> axon.onStart(
                Phase.INBOUND_EVENT_CONNECTORS - 1,
                () -> axon.eventProcessingConfiguration().eventProcessors().values().stream()
                        .filter(PooledStreamingEventProcessor.class::isInstance)
                        .forEach(processor -> CountedWorkQueues.install((PooledStreamingEventProcessor) processor))));
    }

    /**
     * A failing projection must fail the command whose events it could not project. Axon's default logs and skips,
     * and job_queue — which the scanner reads — silently diverges from the event store.
     */
    @Bean
    ConfigurerModule propagateHandlerErrors() {
        return configurer -> configurer
                .eventProcessing()
                .registerDefaultListenerInvocationErrorHandler(c -> PropagatingErrorHandler.instance());
    }

    /**
     * Axon's Jackson serializers read metadata through {@link MetaDataReader}: registered after Axon registered its own
     * deserializer on the same mapper (in the serializer's constructor), it comes first. Static: a post-processor is
     * made before the configuration it is declared in.
     */
    @Bean
    static BeanPostProcessor readMetaDataWithOneLookup() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof JacksonSerializer jackson)
                    jackson.getObjectMapper().registerModule(MetaDataReader.module());
                return bean;
            }
        };
    }

    /** Every aggregate's commands find their target by what was found for their class (Axon's looks per command). */
    @Bean
    CommandTargetResolver commandTargets() {
        return new CommandTargets();
    }

    /** actor and node travel from a command to the events it causes, with the correlation and causation ids. */
    @Bean
    CorrelationDataProvider messageOrigin() {
        return new MessageOriginProvider();
    }

    @Bean
    CorrelationDataProvider actorAndNode() {
        return new SimpleCorrelationDataProvider(Metadata.ACTOR, Metadata.ON_BEHALF_OF, Metadata.NODE);
    }

    /** Every command names the node that handled it; one without an actor is {@code anonymous}. */
    @Bean
    Registration stampNodeAndActor(CommandBus commandBus, @Value("${ax.node.id}") String node) {
        MessageDispatchInterceptor<CommandMessage<?>> stamp =
                messages -> (index, command) -> command.andMetaData(Map.of(
                        Metadata.NODE,
                        node,
                        Metadata.ACTOR,
                        command.getMetaData().getOrDefault(Metadata.ACTOR, Metadata.ANONYMOUS)));
        return commandBus.registerDispatchInterceptor(stamp);
    }
}
