package io.axscheduler.worker.demo;

import io.axscheduler.api.spi.JobHandler;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A runnable worker with the job types {@code echo}, {@code sleep} and {@code flaky}:
 * {@code AX_SCHEDULER_URL=http://localhost:8080 SERVER_PORT=9001 AX_WORKER_APP=demo java -jar ax-worker-demo.jar}.
 *
 * <p>Deliberately not a {@code @Configuration}/{@code @SpringBootApplication}: the scheduler component-scans
 * {@code io.axscheduler}, and must not pick up a worker's handlers when this jar is on its classpath.
 */
@EnableAutoConfiguration
public class WorkerDemoApplication {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(WorkerDemoApplication.class);
        app.setDefaultProperties(defaults());
        app.run(args);
    }

    public static Map<String, Object> defaults() {
        return Map.of(
                "ax.worker.scheduler-url", "${AX_SCHEDULER_URL:http://localhost:8080}",
                "ax.worker.app", "${AX_WORKER_APP:demo}",
                "ax.worker.address", "${AX_WORKER_ADDRESS:}",
                "server.port", "${SERVER_PORT:9001}",
                "spring.application.name", "ax-worker-demo",
                // /actuator/health shows the worker's state (axWorker): registered, refused, taken out
                "management.endpoint.health.show-details", "always");
    }

    @Bean
    JobHandler echo() {
        return new EchoHandler();
    }

    @Bean
    JobHandler sleep() {
        return new SleepHandler();
    }

    @Bean
    JobHandler flaky() {
        return new FlakyHandler();
    }
}
