package io.axscheduler.scheduler.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The writer's batching; that a batch is one transaction of the job commands is JobLifecycleIT's and every IT's. */
class ReportOutcomesTest {

    /** The batches the writer sent, in order, instead of the command bus. */
    static class RecordingCommands extends SchedulerCommands {
        final List<List<JobCommand>> batches = new CopyOnWriteArrayList<>();

        RecordingCommands() {
            super(null);
        }

        @Override
        public List<String> sendBatch(List<? extends JobCommand> batch) {
            batches.add(List.copyOf(batch));
            return java.util.Collections.nCopies(batch.size(), null);
        }
    }

    private static SchedulerProperties settings(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("ax.scheduler", SchedulerProperties.class);
    }

    private static int reportApart(ReportOutcomes outcomes, int n, long apartMs) throws Exception {
        for (int i = 0; i < n; i++) {
            outcomes.report(new SucceedJob("job-" + i, 1, "ok", 1));
            Thread.sleep(apartMs);
        }
        return n;
    }

    private static void awaitWritten(RecordingCommands commands, int n) throws InterruptedException {
        long until = System.currentTimeMillis() + 10_000;
        while (commands.batches.stream().mapToInt(List::size).sum() < n && System.currentTimeMillis() < until) {
            Thread.sleep(5);
        }
        assertThat(commands.batches.stream().mapToInt(List::size).sum()).isEqualTo(n);
    }

    @Test
    void outcomes_arriving_within_the_gather_window_share_one_batch() throws Exception {
        RecordingCommands commands = new RecordingCommands();
        ReportOutcomes outcomes = new ReportOutcomes(
                commands, settings(Map.of("ax.scheduler.execution.report-gather-ms", "1000")), Clock.systemUTC());
        awaitWritten(commands, reportApart(outcomes, 5, 20));
        assertThat(commands.batches).hasSize(1);
        outcomes.drainAndStop(1_000);
    }

    @Test
    void without_a_window_each_outcome_is_written_as_it_comes() throws Exception {
        RecordingCommands commands = new RecordingCommands();
        ReportOutcomes outcomes = new ReportOutcomes(
                commands, settings(Map.of("ax.scheduler.execution.report-gather-ms", "0")), Clock.systemUTC());
        awaitWritten(commands, reportApart(outcomes, 5, 100));
        assertThat(commands.batches).hasSizeGreaterThan(2);
        outcomes.drainAndStop(1_000);
    }

    @Test
    void a_full_batch_does_not_wait_for_the_window() throws Exception {
        RecordingCommands commands = new RecordingCommands();
        ReportOutcomes outcomes = new ReportOutcomes(
                commands,
                settings(Map.of(
                        "ax.scheduler.execution.report-gather-ms", "1000",
                        "ax.scheduler.execution.report-batch", "3")),
                Clock.systemUTC());
        long start = System.currentTimeMillis();
        awaitWritten(commands, reportApart(outcomes, 3, 0));
        assertThat(System.currentTimeMillis() - start).isLessThan(900);
        assertThat(commands.batches).hasSize(1);
        outcomes.drainAndStop(1_000);
    }
}
