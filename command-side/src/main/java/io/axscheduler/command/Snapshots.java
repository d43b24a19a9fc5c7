package io.axscheduler.command;

import org.axonframework.eventsourcing.EventCountSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.SnapshotTriggerDefinition;
import org.axonframework.eventsourcing.Snapshotter;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Snapshots of the aggregates whose streams grow without bound. A schedule gains an event a fire (86,400 a day at
 * one a second), and a job one or two per operator's re-run; loading either from its first event after a restart, an
 * eviction or on another node would read the whole stream. Every {@code threshold} events a snapshot of the
 * aggregate is stored (Axon's {@code SnapshotEventEntry}), and a load reads the latest snapshot and the events after
 * it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(Snapshots.Settings.class)
public class Snapshots {

    public static final String SCHEDULES = "scheduleSnapshots";
    public static final String JOBS = "jobSnapshots";

    /**
     * @param scheduleThreshold a schedule is snapshotted once this many events were read and applied since its last
     *                          snapshot (loaded, or added by commands while it stayed cached)
     * @param jobThreshold      the same for a job; a job's ordinary life is 4 to 6 events, so only re-run loops reach it
     */
    @ConfigurationProperties("ax.command.snapshots")
    public record Settings(
            @DefaultValue("500") int scheduleThreshold,
            @DefaultValue("200") int jobThreshold) {
        public Settings {
            if (scheduleThreshold < 10 || jobThreshold < 10)
                throw new IllegalArgumentException("ax.command.snapshots thresholds must be at least 10 events");
        }
    }

    @Bean(SCHEDULES)
    SnapshotTriggerDefinition scheduleSnapshots(Snapshotter snapshotter, Settings settings) {
        return new EventCountSnapshotTriggerDefinition(snapshotter, settings.scheduleThreshold());
    }

    @Bean(JOBS)
    SnapshotTriggerDefinition jobSnapshots(Snapshotter snapshotter, Settings settings) {
        return new EventCountSnapshotTriggerDefinition(snapshotter, settings.jobThreshold());
    }
}
