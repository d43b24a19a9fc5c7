package io.axscheduler.deploy;

import com.github.kagkarlsson.scheduler.Scheduler;
import io.axscheduler.api.Metadata;
import io.axscheduler.axonmysql.AxonMysqlProperties;
import io.axscheduler.axonmysql.messaging.OriginAndCarriedKeys;
import io.axscheduler.axonmysql.saga.BatchLookupSagaStore;
import io.axscheduler.axonmysql.saga.SegmentRoutedSagaManager;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.lifecycle.JobLifecycleSaga;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.sql.DataSource;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.Registration;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurationScopeAwareProvider;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.deadline.DeadlineManagerSpanFactory;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.messaging.MessageDispatchInterceptor;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.SagaManagerSpanFactory;
import org.axonframework.modelling.saga.metamodel.AnnotationSagaMetaModelFactory;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.GenericSagaSqlSchema;
import org.axonframework.modelling.saga.repository.jdbc.JdbcSagaStore;
import org.axonframework.modelling.saga.repository.jdbc.SagaSchema;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.axonframework.springboot.TokenStoreProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
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
     * Axon's JDBC token store as its auto-configuration builds it, but with the owner of a claimed segment named by
     * this node's id beside its process ({@code pid@host}, Axon's default, which alone tells an operator nothing):
     * a refusal that names a segment's owner ("stop it there first") names the node. The process keeps owners of two
     * nodes given one id apart.
     */
    @Bean
    TokenStore tokenStore(
            ConnectionProvider connections, Serializer serializer, TokenStoreProperties tokens, NodeProperties node) {
        String owner = node.id() + " (" + ManagementFactory.getRuntimeMXBean().getName() + ")";
        return JdbcTokenStore.builder()
                .connectionProvider(connections)
                .schema(new TokenSchema())
                .serializer(serializer)
                .claimTimeout(tokens.getClaimTimeout())
                .nodeId(owner.length() > 255 ? owner.substring(0, 255) : owner)
                .build();
    }

    /**
     * Axon's db-scheduler deadline manager as its auto-configuration builds it (the scheduler started and stopped by
     * db-scheduler's own auto-configuration), but tolerating the cancel of a deadline that is executing right then
     * (see {@link RunningDeadlines}).
     */
    @Bean
    RunningDeadlines deadlineManager(
            Scheduler scheduler,
            org.axonframework.config.Configuration configuration,
            @Qualifier("eventSerializer") Serializer serializer,
            TransactionManager transactionManager,
            DeadlineManagerSpanFactory spanFactory) {
        return new RunningDeadlines(
                DbSchedulerDeadlineManager.builder()
                        .scopeAwareProvider(new ConfigurationScopeAwareProvider(configuration))
                        .serializer(serializer)
                        .transactionManager(transactionManager)
                        .startScheduler(false)
                        .stopScheduler(false),
                scheduler,
                spanFactory);
    }

    /**
     * Axon's JDBC saga store, with the association lookups of a batch of events read in one query instead of one per
     * event and segment (see {@link BatchLookupSagaStore}).
     */
    @Bean
    SagaStore<Object> sagaStore(
            ConnectionProvider connections,
            Serializer serializer,
            ObjectProvider<org.axonframework.config.Configuration> axon,
            AxonMysqlProperties tweaks) {
        SagaSchema schema = new SagaSchema();
        SagaStore<Object> jdbc = JdbcSagaStore.builder()
                .connectionProvider(connections)
                .sqlSchema(new GenericSagaSqlSchema(schema))
                .serializer(serializer)
                .build();
        if (!tweaks.sagaBatchLookups()) return jdbc;
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
    ConfigurerModule routeSagaEventsBySegment(AxonMysqlProperties tweaks) {
        return new ConfigurerModule() {
            @Override
            public void configureModule(Configurer configurer) {
                if (!tweaks.sagaSegmentRouting()) return;
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
     * actor and node travel from a command to the events it causes, with the correlation and trace ids: one provider
     * that answers once per message ({@link OriginAndCarriedKeys}), or Axon's two ({@code
     * ax.axon.correlation-in-one}).
     */
    @Bean
    @ConditionalOnProperty(name = "ax.axon.correlation-in-one", havingValue = "true", matchIfMissing = true)
    CorrelationDataProvider originActorAndNode() {
        return new OriginAndCarriedKeys(Metadata.ACTOR, Metadata.ON_BEHALF_OF, Metadata.NODE);
    }

    @Bean
    @ConditionalOnProperty(name = "ax.axon.correlation-in-one", havingValue = "false")
    CorrelationDataProvider messageOrigin() {
        return new MessageOriginProvider();
    }

    @Bean
    @ConditionalOnProperty(name = "ax.axon.correlation-in-one", havingValue = "false")
    CorrelationDataProvider actorAndNode() {
        return new SimpleCorrelationDataProvider(Metadata.ACTOR, Metadata.ON_BEHALF_OF, Metadata.NODE);
    }

    /** Every command names the node that handled it; one without an actor is {@code anonymous}. */
    @Bean
    Registration stampNodeAndActor(CommandBus commandBus, NodeProperties node) {
        MessageDispatchInterceptor<CommandMessage<?>> stamp =
                messages -> (index, command) -> command.andMetaData(Map.of(
                        Metadata.NODE,
                        node.id(),
                        Metadata.ACTOR,
                        command.getMetaData().getOrDefault(Metadata.ACTOR, Metadata.ANONYMOUS)));
        return commandBus.registerDispatchInterceptor(stamp);
    }
}
