package io.axscheduler.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RetentionSettingsTest {

    private static SchedulerProperties.Retention bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("ax.scheduler", SchedulerProperties.class)
                .retention();
    }

    @Test
    void finished_jobs_are_kept_30_days_by_default_and_0_keeps_them_for_good() {
        assertThat(bind(Map.of()).finishedJobs()).isEqualTo(Duration.ofDays(30));
        assertThat(bind(Map.of("ax.scheduler.retention.finished-jobs", "0")).finishedJobs())
                .isZero();
        assertThat(bind(Map.of("ax.scheduler.retention.finished-jobs", "12h")).finishedJobs())
                .isEqualTo(Duration.ofHours(12));
    }

    @Test
    void a_retention_under_an_hour_or_a_batch_out_of_bounds_refuses_to_start() {
        for (Map<String, String> bad : new Map[] {
            Map.of("ax.scheduler.retention.finished-jobs", "30s"),
            Map.of("ax.scheduler.retention.finished-jobs", "59m"),
            Map.of("ax.scheduler.retention.finished-jobs", "-1d"),
            Map.of("ax.scheduler.retention.batch-size", "0"),
            Map.of("ax.scheduler.retention.batch-size", "1001"),
            Map.of("ax.scheduler.retention.check-ms", "999"),
            Map.of("ax.scheduler.retention.max-per-check", "10")
        }) {
            assertThatThrownBy(() -> bind(bad))
                    .as(bad.toString())
                    .rootCause()
                    .hasMessageContaining("ax.scheduler.retention.");
        }
    }
}
