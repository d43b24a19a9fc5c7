package io.axscheduler.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.spi.JobHandler;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
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

    private static final Logger log = LoggerFactory.getLogger(AxWorkerAutoConfiguration.class);

    /** Settings an earlier version read, with what took their place. */
    private static final Map<String, String> RETIRED = Map.of(
            "ax.worker.callback-attempts",
            "an undelivered outcome is now tried again for ax.worker.callback-retry-ms (5 minutes by default)");

    @Bean
    SchedulerClient axSchedulerClient(AxWorkerProperties properties, ObjectMapper json, Environment environment) {
        retiredSettings(environment).forEach(log::warn);
        return new SchedulerClient(properties, json, Clock.systemUTC());
    }

    /** A warning for each retired setting still given: it is not read any more, and saying nothing would hide that. */
    static List<String> retiredSettings(Environment environment) {
        return RETIRED.entrySet().stream()
                .filter(e -> environment.containsProperty(e.getKey()))
                .map(e -> e.getKey() + " is no longer read and is ignored: " + e.getValue())
                .sorted()
                .toList();
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
