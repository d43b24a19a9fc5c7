package io.axscheduler.scheduler.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
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
            return Collections.nCopies(batch.size(), null);
        }

        int written() {
            return batches.stream().mapToInt(List::size).sum();
        }
    }

    /** Sends fail as a lost connection while {@code down}; every try counted. */
    static class FlakyConnection extends RecordingCommands {
        volatile boolean down = true;
        final java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public List<String> sendBatch(List<? extends JobCommand> batch) {
            tries.incrementAndGet();
            if (down) throw new org.springframework.jdbc.CannotGetJdbcConnectionException("connection refused");
            return super.sendBatch(batch);
        }

        @Override
        public <R> R sendAndWait(Object command) {
            tries.incrementAndGet();
            if (down) throw new org.springframework.jdbc.CannotGetJdbcConnectionException("connection refused");
            batches.add(List.of((JobCommand) command));
            return null;
        }
    }

    private RecordingCommands commands = new RecordingCommands();
    private ReportOutcomes outcomes;
    private volatile boolean databaseAnswers = true;

    /** A writer with the given {@code ax.scheduler.execution} settings. */
    private void start(Map<String, String> execution) {
        Map<String, String> values = new HashMap<>();
        execution.forEach((key, value) -> values.put("ax.scheduler.execution." + key, value));
        SchedulerProperties settings = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("ax.scheduler", SchedulerProperties.class);
        outcomes = new ReportOutcomes(commands, settings, Clock.systemUTC(), () -> databaseAnswers);
    }

    @AfterEach
    void stop() {
        if (outcomes != null) outcomes.drainAndStop(1_000);
    }

    /** Reports {@code n} outcomes {@code apartMs} apart and waits until all are written. */
    private void reportApart(int n, long apartMs) throws Exception {
        for (int i = 0; i < n; i++) {
            outcomes.report(new SucceedJob("job-" + i, 1, "ok", 1));
            Thread.sleep(apartMs);
        }
        long until = System.currentTimeMillis() + 10_000;
        while (commands.written() < n && System.currentTimeMillis() < until) Thread.sleep(5);
        assertThat(commands.written()).isEqualTo(n);
    }

    @Test
    void outcomes_arriving_within_the_gather_window_share_one_batch() throws Exception {
        start(Map.of("report-gather-ms", "1000"));
        reportApart(5, 20);
        assertThat(commands.batches).hasSize(1);
    }

    @Test
    void without_a_window_each_outcome_is_written_as_it_comes() throws Exception {
        start(Map.of("report-gather-ms", "0"));
        reportApart(5, 100);
        assertThat(commands.batches).hasSizeGreaterThan(2);
    }

    @Test
    void a_full_batch_does_not_wait_for_the_window() throws Exception {
        start(Map.of("report-gather-ms", "1000", "report-batch", "3"));
        long start = System.currentTimeMillis();
        reportApart(3, 0);
        assertThat(System.currentTimeMillis() - start).isLessThan(900);
        assertThat(commands.batches).hasSize(1);
    }

    @Test
    void outcomes_wait_out_a_database_outage_however_long_and_are_written_once_it_answers() throws Exception {
        FlakyConnection flaky = new FlakyConnection();
        commands = flaky;
        databaseAnswers = false;
        start(Map.of("report-gather-ms", "0"));
        outcomes.report(new SucceedJob("job-1", 1, "ok", 1));
        // well past the five tries an outcome had before it was given up to its run deadline
        Thread.sleep(4_000);
        assertThat(flaky.written()).isZero();
        flaky.down = false;
        databaseAnswers = true;
        long until = System.currentTimeMillis() + 5_000;
        while (flaky.written() < 1 && System.currentTimeMillis() < until) Thread.sleep(5);
        assertThat(flaky.batches).containsExactly(List.of(new SucceedJob("job-1", 1, "ok", 1)));
    }

    @Test
    void a_connection_failure_while_the_database_answers_is_the_batchs_own_and_ends_after_its_tries() throws Exception {
        FlakyConnection flaky = new FlakyConnection();
        commands = flaky;
        start(Map.of("report-gather-ms", "0"));
        outcomes.report(new SucceedJob("job-1", 1, "ok", 1));
        // the batch once, then the outcome alone five times (200 + 400 + 600 + 800 ms apart), then given up
        long until = System.currentTimeMillis() + 10_000;
        while (flaky.tries.get() < 6 && System.currentTimeMillis() < until) Thread.sleep(5);
        Thread.sleep(1_000);
        assertThat(flaky.tries.get()).isEqualTo(6);
        assertThat(outcomes.behind()).isFalse();
    }

    @Test
    void a_refused_success_is_a_warning_and_a_refused_failure_is_not() throws Exception {
        commands = new RecordingCommands() {
            @Override
            public List<String> sendBatch(List<? extends JobCommand> batch) {
                super.sendBatch(batch);
                return batch.stream()
                        .map(c -> c.jobId().equals("job-again")
                                ? "job job-again is SUCCEEDED at attempt 1; attempt 1 is not running"
                                : "job " + c.jobId() + " is RETRY_WAITING at attempt 1; attempt 1 is not running")
                        .toList();
            }
        };
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
                new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        ch.qos.logback.classic.Logger logger =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(ReportOutcomes.class);
        logger.addAppender(lines);
        try {
            start(Map.of("report-gather-ms", "0"));
            outcomes.report(new io.axscheduler.api.job.FailJob("job-f", 1, "boom", 1));
            outcomes.report(new SucceedJob("job-s", 1, "ok", 1));
            // sent again after a lost answer: already recorded, no warning
            outcomes.report(new SucceedJob("job-again", 1, "ok", 1));
            long until = System.currentTimeMillis() + 10_000;
            while (commands.written() < 3 && System.currentTimeMillis() < until) Thread.sleep(5);
            Thread.sleep(100);
        } finally {
            logger.detachAppender(lines);
        }
        List<String> warnings = lines.list.stream()
                .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0))
                .contains("job job-s attempt 1 succeeded here")
                .contains("is RETRY_WAITING at attempt 1")
                .contains("runs the work again");
    }
}
