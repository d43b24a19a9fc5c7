package io.axscheduler.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunsTest {

    private static final long DUE = 1_000_000_000_000L;

    @Test
    void percentiles_are_the_nearest_rank_of_each_jobs_first_start() {
        Runs runs = new Runs(100);
        for (int id = 0; id < 100; id++) {
            runs.due(id, DUE);
            runs.ran(id, DUE + (100 - id) * 1000L); // job id starts (100 − id) ms late: 1 … 100 ms
        }

        Map<String, Object> line = stats(runs);

        assertThat(line)
                .containsEntry("p50_ms", 50.0)
                .containsEntry("p99_ms", 99.0)
                .containsEntry("max_ms", 100.0)
                .containsEntry("min_ms", 1.0);
    }

    @Test
    void a_percentiles_rank_rounds_up_when_the_count_does_not_divide() {
        Runs runs = new Runs(51);
        for (int id = 0; id < 51; id++) {
            runs.due(id, DUE);
            runs.ran(id, DUE + (id + 1) * 1000L); // 1 … 51 ms
        }

        // ranks 25.5 and 50.49 round up to the 26th and the 51st start
        assertThat(stats(runs)).containsEntry("p50_ms", 26.0).containsEntry("p99_ms", 51.0);
    }

    @Test
    void every_job_run_once_is_exactly_once() {
        Runs runs = new Runs(3);
        for (int id = 0; id < 3; id++) {
            runs.due(id, DUE);
            runs.ran(id, DUE + 5_000);
        }

        assertThat(stats(runs))
                .containsEntry("exactly_once", true)
                .containsEntry("missing", 0)
                .containsEntry("duplicates", 0);
        assertThat(runs.started()).isEqualTo(3);
    }

    @Test
    void a_second_run_is_a_duplicate_and_leaves_the_latency_of_the_first() {
        Runs runs = new Runs(2);
        runs.due(0, DUE);
        runs.due(1, DUE);
        runs.ran(0, DUE + 2_000);
        runs.ran(1, DUE + 4_000);
        runs.ran(1, DUE + 900_000);
        runs.ran(1, DUE + 950_000);

        assertThat(stats(runs))
                .containsEntry("exactly_once", false)
                .containsEntry("missing", 0)
                .containsEntry("duplicates", 2)
                .containsEntry("max_ms", 4.0);
        assertThat(runs.started()).isEqualTo(2);
        assertThat(runs.lastStartMicros()).isEqualTo(DUE + 4_000);
    }

    @Test
    void a_job_that_never_ran_is_missing_and_not_in_the_latency() {
        Runs runs = new Runs(3);
        for (int id = 0; id < 3; id++) runs.due(id, DUE);
        runs.ran(0, DUE + 1_000);
        runs.ran(2, DUE + 3_000);

        assertThat(stats(runs))
                .containsEntry("exactly_once", false)
                .containsEntry("missing", 1)
                .containsEntry("duplicates", 0)
                .containsEntry("min_ms", 1.0)
                .containsEntry("max_ms", 3.0);
    }

    @Test
    void a_start_before_the_due_time_is_early() {
        Runs runs = new Runs(2);
        runs.due(0, DUE);
        runs.due(1, DUE);
        runs.ran(0, DUE - 300_000);
        runs.ran(1, DUE + 1_000);

        assertThat(stats(runs)).containsEntry("early", 1).containsEntry("min_ms", -300.0);
    }

    @Test
    void nothing_run_gives_no_latency() {
        Runs runs = new Runs(1);
        runs.due(0, DUE);

        assertThat(stats(runs))
                .containsEntry("p50_ms", null)
                .containsEntry("max_ms", null)
                .containsEntry("missing", 1);
    }

    private static Map<String, Object> stats(Runs runs) {
        Map<String, Object> line = new LinkedHashMap<>();
        runs.put(line);
        return line;
    }
}
