package io.axscheduler.worker;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The worker's health ({@code axWorker}), when the service has Spring Boot's actuator and the worker runs. An
 * auto-configuration of its own rather than a nested class: an application that component-scans {@code io.axscheduler}
 * (the scheduler itself, in tests) would pick a nested configuration up, worker or not.
 */
@AutoConfiguration(after = AxWorkerAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(WorkerRuntime.class)
public class AxWorkerHealthAutoConfiguration {

    @Bean
    WorkerHealth axWorkerHealthIndicator(WorkerRuntime runtime, WorkerRuns runs, AxWorkerProperties properties) {
        return new WorkerHealth(runtime, runs, properties);
    }
}
