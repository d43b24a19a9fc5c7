package io.axscheduler.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScanThreadTest {

    private final List<Long> passes = new CopyOnWriteArrayList<>();
    private final ScanThread thread = new ScanThread("test-scan", 60_000, 60_000, java.time.Clock.systemUTC(), () -> {
        passes.add(System.currentTimeMillis());
        return false;
    });

    @AfterEach
    void stop() {
        thread.stop();
    }

    @Test
    void a_pass_runs_at_each_wake_time_and_not_before() throws InterruptedException {
        thread.start();
        awaitPasses(1); // the first pass runs at the start
        long now = System.currentTimeMillis();

        thread.wakeAt(now + 400);
        thread.wakeAt(now + 200);

        awaitPasses(3);
        assertThat(passes.get(1) - now).isBetween(200L, 350L);
        assertThat(passes.get(2) - now).isBetween(400L, 550L);
        Thread.sleep(300);
        assertThat(passes).hasSize(3); // then back to the 60 s pause
    }

    @Test
    void a_wake_time_already_past_runs_a_pass_at_once() throws InterruptedException {
        thread.start();
        awaitPasses(1);

        thread.wakeAt(System.currentTimeMillis() - 1_000);

        awaitPasses(2);
    }

    private void awaitPasses(int n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        while (passes.size() < n && System.currentTimeMillis() < deadline) Thread.sleep(5);
        assertThat(passes).hasSizeGreaterThanOrEqualTo(n);
    }
}
