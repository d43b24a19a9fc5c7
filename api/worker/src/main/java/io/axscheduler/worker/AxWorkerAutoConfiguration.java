package io.axscheduler.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.spi.JobHandler;
import java.time.Clock;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Turns a Spring Boot web application into an ax-scheduler worker: every {@link JobHandler} bean runs jobs of its
 * type pushed by the scheduler named in {@code ax.worker.scheduler-url}. Without that property nothing happens.
 */
@AutoConfiguration(after = JacksonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "ax.worker", name = "scheduler-url")
@EnableConfigurationProperties(AxWorkerProperties.class)
public class AxWorkerAutoConfiguration {

    @Bean
    SchedulerClient axSchedulerClient(AxWorkerProperties properties, ObjectMapper json) {
        return new SchedulerClient(properties, json, Clock.systemUTC());
    }

    @Bean
    WorkerRuntime axWorkerRuntime(
            AxWorkerProperties properties, SchedulerClient scheduler, ApplicationContext context) {
        return new WorkerRuntime(properties, scheduler, context);
    }

    @Bean
    WorkerRuns axWorkerRuns(List<JobHandler> handlers, AxWorkerProperties properties, WorkerRuntime runtime) {
        WorkerRuns runs = new WorkerRuns(handlers, properties, runtime);
        runtime.runsWith(runs);
        return runs;
    }

    @Bean
    RouterFunction<ServerResponse> axWorkerPushEndpoint(WorkerRuns runs, WorkerRuntime runtime, ObjectMapper json) {
        return PushEndpoint.route(runs, runtime, json);
    }
}
