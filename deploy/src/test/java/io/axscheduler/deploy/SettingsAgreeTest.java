package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.query.observe.LivenessProperties;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.alert.AlertProperties;
import io.axscheduler.scheduler.remote.RemoteProperties;
import io.axscheduler.scheduler.remote.WorkerProperties;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The sides never import each other, so a key both read is bound by a record on each side: both must give the same
 * value, by default and when set.
 */
class SettingsAgreeTest {

    static final Map<String, String> SET = Map.of(
            "ax.observe.node-report-ms", "700",
            "ax.scheduler.health.scan-stall-ms", "12345",
            "ax.scheduler.workers.heartbeat-interval-ms", "2500",
            "ax.scheduler.workers.missed-heartbeats", "7",
            "ax.scheduler.schedules.hold-back-after-ms", "4321",
            "ax.scheduler.remote.no-worker-timeout", "7m");

    private static <T> T bind(Map<String, String> values, String prefix, Class<T> type) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }

    @Test
    void the_read_side_and_the_scheduler_side_read_the_same_values_by_default_and_when_set() {
        for (Map<String, String> values : List.of(Map.<String, String>of(), SET)) {
            LivenessProperties read = bind(values, "ax.scheduler", LivenessProperties.class);
            SchedulerProperties scheduler = bind(values, "ax.scheduler", SchedulerProperties.class);
            WorkerProperties workers = bind(values, "ax.scheduler.workers", WorkerProperties.class);
            assertThat(read.health().scanStallMs()).isEqualTo(scheduler.health().scanStallMs());
            assertThat(read.workers().heartbeatIntervalMs()).isEqualTo(workers.heartbeatIntervalMs());
            assertThat(read.workers().missedHeartbeats()).isEqualTo(workers.missedHeartbeats());
            assertThat(read.schedules().holdBackAfterMs())
                    .isEqualTo(scheduler.schedules().holdBackAfterMs());
            assertThat(read.remote().noWorkerTimeout())
                    .isEqualTo(bind(values, "ax.scheduler.remote", RemoteProperties.class)
                            .noWorkerTimeout());

            io.axscheduler.query.observe.ObserveProperties readObserve =
                    bind(values, "ax.observe", io.axscheduler.query.observe.ObserveProperties.class);
            io.axscheduler.scheduler.observe.ObserveProperties nodeObserve =
                    bind(values, "ax.observe", io.axscheduler.scheduler.observe.ObserveProperties.class);
            assertThat(readObserve.nodeReportMs()).isEqualTo(nodeObserve.nodeReportMs());
            assertThat(readObserve.nodeSilentMs()).isEqualTo(nodeObserve.nodeSilentMs());
        }
        assertThat(bind(SET, "ax.scheduler", LivenessProperties.class).workers().silenceMs())
                .isEqualTo(2500 * 7);
    }

    @Test
    void application_yml_sets_the_alert_and_observe_settings_to_the_records_defaults() throws IOException {
        List<PropertySource<?>> yml =
                new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"));
        Binder shipped = new Binder(ConfigurationPropertySources.from(yml));
        AlertProperties alerts = shipped.bindOrCreate("ax.alerts", AlertProperties.class);
        AlertProperties defaults = bind(Map.of(), "ax.alerts", AlertProperties.class);
        assertThat(alerts.rateLimit()).isEqualTo(defaults.rateLimit());
        assertThat(alerts.evaluateMs()).isEqualTo(defaults.evaluateMs());
        assertThat(alerts.eventWindowMs()).isEqualTo(defaults.eventWindowMs());
        assertThat(shipped.bindOrCreate("ax.observe", io.axscheduler.query.observe.ObserveProperties.class))
                .isEqualTo(bind(Map.of(), "ax.observe", io.axscheduler.query.observe.ObserveProperties.class));
    }
}
