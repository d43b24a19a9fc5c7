package io.axscheduler.deploy;

import io.axscheduler.command.AggregateCacheProperties;
import io.axscheduler.command.schedule.ScheduleRequestProperties;
import io.axscheduler.query.stats.StatusCountProperties;
import io.axscheduler.query.stream.StreamProperties;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
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
        nameTheHost();
        List<String> arguments = new ArrayList<>(List.of(args));
        try {
            EmbeddedDatabase.startUnlessConfigured(arguments);
        } catch (EmbeddedDatabase.DataDirectoryInUse inUse) {
            System.err.println(inUse.getMessage());
            System.exit(1);
            return;
        }
        org.springframework.context.ConfigurableApplicationContext context;
        try {
            context = SpringApplication.run(AxSchedulerApplication.class, arguments.toArray(String[]::new));
        } catch (Throwable failed) {
            // Spring has logged why and closed the context, but threads started before the failure (event
            // processors, status timers) are not daemons: the process would live on, serving nothing, logging the
            // closed pool's errors, and a supervisor that restarts on exit would never see it fail. The embedded
            // server, if any, stops on the way out.
            EmbeddedDatabase.stopOnExit(() -> {});
            System.exit(1);
            return;
        }
        EmbeddedDatabase.stopAfter(context);
    }

    /**
     * The default node id is {@code <HOSTNAME>-<port>} ({@code application.yml}), but shells do not export
     * {@code HOSTNAME} and systemd does not set it: every such node was {@code localhost-8080}, one name for nodes on
     * different hosts in their claims, events and shared status row. When neither the environment nor a system
     * property names the host, the machine's host name is put in the system property.
     */
    static void nameTheHost() {
        String set = System.getenv("HOSTNAME");
        if (set != null && !set.isBlank() || System.getProperty("HOSTNAME") != null) return;
        String name = machineName();
        if (name != null) System.setProperty("HOSTNAME", name);
    }

    /** The kernel's host name (Linux), else the one Java resolves, else null. */
    static String machineName() {
        try {
            String kernel =
                    Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!kernel.isEmpty()) return kernel;
        } catch (IOException | RuntimeException notLinux) {
            // fall through
        }
        try {
            String resolved = InetAddress.getLocalHost().getHostName();
            return resolved == null || resolved.isBlank() ? null : resolved;
        } catch (IOException e) {
            return null;
        }
    }

    /** Axon's update checker calls home and its console banner prints ads: neither belongs in a scheduler's log. */
    public static void quietAxon() {
        System.setProperty("axon.update-check.disabled", "true");
        System.setProperty("disable-axoniq-console-message", "true");
    }
}
