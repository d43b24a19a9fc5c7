package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

/**
 * An outcome no node takes is tried again in the background until one does, and a stop waits for it; a heartbeat's
 * answer stops the runs it names.
 */
class WorkerRuntimeTest {

    private HttpServer scheduler;
    private WorkerRuntime runtime;
    private WorkerRuns runs;
    private AxWorkerProperties properties;
    private final AtomicInteger callbacks = new AtomicInteger();
    private final AtomicInteger registrations = new AtomicInteger();
    private volatile int unavailableCallbacks;
    private volatile long heartbeatMs = 60_000;
    private volatile String heartbeatAnswer = "{\"workerId\":\"w1\"}";
    private volatile int heartbeatStatus = 200;
    private final AtomicInteger heartbeats = new AtomicInteger();
    private List<JobHandler> handlers = List.of();

    @AfterEach
    void stop() {
        if (runtime != null && runtime.isRunning()) runtime.stop();
        if (scheduler != null) scheduler.stop(0);
    }

    private void start(int unavailable, long retryMs) throws IOException, InterruptedException {
        start(unavailable, retryMs, 201);
        until(Duration.ofSeconds(5), () -> "w1".equals(runtime.workerId()));
    }

    private void start(int unavailable, long retryMs, int registerStatus) throws IOException {
        unavailableCallbacks = unavailable;
        scheduler = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        scheduler.createContext("/api/v1/workers/register", e -> {
            registrations.incrementAndGet();
            if (registerStatus == 201)
                answer(e, 201, "{\"workerId\":\"w1\",\"secret\":\"00\",\"heartbeatIntervalMs\":" + heartbeatMs + "}");
            else answer(e, registerStatus, "{\"title\":\"Forbidden\"}");
        });
        scheduler.createContext("/api/v1/workers/callbacks", e -> {
            int n = callbacks.incrementAndGet();
            answer(e, n <= unavailableCallbacks ? 503 : 200, "{\"applied\":true}");
        });
        scheduler.createContext("/api/v1/workers/w1/heartbeat", e -> {
            heartbeats.incrementAndGet();
            answer(e, heartbeatStatus, heartbeatAnswer);
        });
        scheduler.createContext("/api/v1/workers/", e -> answer(e, 204, ""));
        scheduler.start();
        properties = new AxWorkerProperties(
                "http://127.0.0.1:" + scheduler.getAddress().getPort(),
                "app",
                "http://127.0.0.1:9",
                2,
                1000,
                2000,
                10_000,
                100,
                retryMs,
                null,
                "default");
        runtime = new WorkerRuntime(
                properties, new SchedulerClient(properties, new ObjectMapper(), Clock.systemUTC()), null);
        runs = new WorkerRuns(handlers, properties, runtime);
        runtime.runsWith(runs);
        runtime.start();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        exchange.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void until(Duration atMost, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + atMost.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited " + atMost).isLessThan(end);
            Thread.sleep(20);
        }
    }

    private static JobCallback outcome() {
        return new JobCallback("w1", "job-1", 1, 0, true, "done", null, 5);
    }

    @Test
    void an_outcome_no_node_takes_is_tried_again_until_one_does() throws Exception {
        start(3, 60_000);
        long began = System.nanoTime();
        runtime.report(outcome());
        assertThat(Duration.ofNanos(System.nanoTime() - began))
                .as("the first try only, on the caller's thread")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(callbacks.get()).isEqualTo(1);
        // backing off 200, 400, 800 ms: the fourth try is taken
        until(Duration.ofSeconds(5), () -> callbacks.get() == 4);
        Thread.sleep(1_000);
        assertThat(callbacks.get()).as("delivered: no more tries").isEqualTo(4);
    }

    @Test
    void a_registration_the_scheduler_refuses_is_asked_again_seldom_one_it_cannot_answer_soon() throws Exception {
        start(0, 60_000, 403);
        until(Duration.ofSeconds(5), () -> registrations.get() == 1);
        Thread.sleep(3_000);
        assertThat(registrations.get())
                .as("a 403 is not asked again within seconds")
                .isEqualTo(1);
        runtime.stop();
        scheduler.stop(0);

        registrations.set(0);
        start(0, 60_000, 503);
        until(Duration.ofSeconds(6), () -> registrations.get() >= 2);
    }

    @Test
    void a_run_named_on_a_heartbeats_answer_is_told_to_stop_and_its_outcome_reported() throws Exception {
        startWithAWaitingRun();
        runs.accept(new PushedJob("job-2", 1, "wait", "job-2", Map.of(), 60_000, 0, 1));
        Thread.sleep(300);
        assertThat(stopped.getCount()).as("an answer naming no run stops none").isEqualTo(1);
        // a later scheduler's field, and a run this worker never had, change nothing
        heartbeatAnswer = """
                {"workerId":"w1","since":1,"stop":[{"jobId":"job-1","attempt":1,"shardIndex":0,
                 "reason":"the job was canceled","by":"key:ops"},{"jobId":"job-9","attempt":1,"shardIndex":0}]}""";
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        until(Duration.ofSeconds(5), () -> callbacks.get() == 1 && runs.inFlight() == 1);
        Thread.sleep(300);
        assertThat(runs.inFlight()).as("job-2 runs on").isEqualTo(1);
        runs.cancelAll();
    }

    private final CountDownLatch stopped = new CountDownLatch(1);

    private void startWithAWaitingRun() throws Exception {
        handlers = List.of(new JobHandler() {
            public String jobType() {
                return "wait";
            }

            public String execute(JobContext context) throws Exception {
                if (!context.awaitCancellation(10_000)) return "ran to its end";
                stopped.countDown();
                return "stopped";
            }
        });
        heartbeatMs = 100;
        start(0, 60_000);
        runs.accept(new PushedJob("job-1", 1, "wait", "job-1", Map.of(), 60_000, 0, 1));
    }

    @Test
    void a_worker_taken_out_stops_its_runs_takes_no_push_and_neither_heartbeats_nor_registers_again() throws Exception {
        startWithAWaitingRun();
        WorkerHealth health = new WorkerHealth(runtime, runs, properties);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(health.health().getDetails()).containsEntry("workerId", "w1").containsEntry("inFlight", 1);
        heartbeatAnswer = "{\"title\":\"Gone\",\"detail\":\"worker w1 was taken out: removed by key:ops\"}";
        heartbeatStatus = 410;
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        until(Duration.ofSeconds(5), runtime::removed);
        int heard = heartbeats.get();
        Thread.sleep(500);
        assertThat(heartbeats.get()).as("no heartbeat after the 410").isEqualTo(heard);
        assertThat(registrations.get()).isEqualTo(1);
        assertThat(runtime.workerId()).isNull();
        assertThat(health.health().getStatus())
                .as("not DOWN: the service itself is fine")
                .isEqualTo(Status.UNKNOWN);
        assertThat(health.health().getDetails())
                .containsEntry("takenOut", true)
                .containsEntry("problem", "taken out by the scheduler: worker w1 was taken out: removed by key:ops");
        assertThat(runs.accept(new PushedJob("job-2", 1, "wait", "job-2", Map.of(), 60_000, 0, 1))
                        .state())
                .isEqualTo(PushState.BUSY);
    }

    @Test
    void a_stop_saying_the_worker_is_out_takes_it_out_at_once() throws Exception {
        startWithAWaitingRun();
        runtime.takenOut("worker w1 was taken out by key:ops");
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(runtime.removed()).isTrue();
        int heard = heartbeats.get();
        Thread.sleep(500);
        assertThat(heartbeats.get()).as("no heartbeat once out").isEqualTo(heard);
        assertThat(new WorkerHealth(runtime, runs, properties).health().getDetails())
                .containsEntry("problem", "taken out by the scheduler: worker w1 was taken out by key:ops");
    }

    @Test
    void a_worker_the_scheduler_removed_as_silent_stops_its_runs_before_it_registers_again() throws Exception {
        startWithAWaitingRun();
        // paused past the silence: its run was timed out and runs elsewhere, its outcome would be refused
        heartbeatStatus = 404;
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        until(Duration.ofSeconds(5), () -> registrations.get() >= 2);
        assertThat(runtime.removed()).isFalse();
    }

    @Test
    void a_worker_whose_key_is_refused_stops_its_runs_and_asks_to_register_seldom() throws Exception {
        startWithAWaitingRun();
        heartbeatStatus = 401;
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        until(Duration.ofSeconds(5), () -> runtime.workerId() == null);
        int heard = heartbeats.get();
        Thread.sleep(1_000);
        assertThat(heartbeats.get()).isEqualTo(heard);
        assertThat(registrations.get()).as("asked again only after 30 s").isEqualTo(1);
        assertThat(new WorkerHealth(runtime, runs, properties).health().getDetails())
                .containsEntry("problem", "the scheduler refuses its API key (401)");
        assertThat(runtime.removed()).isFalse();
    }

    @Test
    void a_stop_waits_within_its_grace_for_outcomes_still_to_be_told() throws Exception {
        start(2, 60_000);
        runtime.report(outcome());
        runtime.stop();
        assertThat(callbacks.get()).as("told before the worker left").isEqualTo(3);
    }

    @Test
    void an_outcome_is_given_up_after_the_retry_time() throws Exception {
        start(Integer.MAX_VALUE, 500);
        runtime.report(outcome());
        Thread.sleep(2_500);
        int tries = callbacks.get();
        assertThat(tries).isBetween(2, 4);
        Thread.sleep(1_500);
        assertThat(callbacks.get()).as("no tries after the retry time").isEqualTo(tries);
    }
}
