package io.axscheduler.deploy;

import io.axscheduler.command.AggregateCacheProperties;
import io.axscheduler.command.schedule.ScheduleRequestProperties;
import io.axscheduler.query.stats.StatusCountProperties;
import io.axscheduler.query.stream.StreamProperties;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerProperties;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * One ax-scheduler node. With no {@code AX_DB_URL} it starts an embedded MariaDB whose data stays under
 * {@code ./data/}; with one, it joins whatever other nodes share that database.
 */
@SpringBootApplication(scanBasePackages = "io.axscheduler")
@EnableScheduling
@EnableConfigurationProperties({
    NodeProperties.class,
    SchedulerProperties.class,
    AggregateCacheProperties.class,
    ScheduleRequestProperties.class,
    StreamProperties.class,
    StatusCountProperties.class
})
public class AxSchedulerApplication {

    public static void main(String[] args) {
        quietAxon();
        List<String> arguments = new ArrayList<>(List.of(args));
        EmbeddedDatabase.startUnlessConfigured(arguments);
        EmbeddedDatabase.stopAfter(
                SpringApplication.run(AxSchedulerApplication.class, arguments.toArray(String[]::new)));
    }

    /** Axon's update checker calls home and its console banner prints ads: neither belongs in a scheduler's log. */
    public static void quietAxon() {
        System.setProperty("axon.update-check.disabled", "true");
        System.setProperty("disable-axoniq-console-message", "true");
    }
}
