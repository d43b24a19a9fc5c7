package io.axscheduler.scheduler.remote;

import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Kept free of CommandGateway injections: Axon beans and a gateway in one configuration class make a bean cycle. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({WorkerProperties.class, RemoteProperties.class, WorkerAddressProperties.class})
class WorkerSetup {

    /** The worker a command names travels to the events it causes: JobSucceeded and JobFailed name their worker. */
    @Bean
    CorrelationDataProvider workerOfOutcome() {
        return new SimpleCorrelationDataProvider(WorkerCommands.WORKER);
    }
}
