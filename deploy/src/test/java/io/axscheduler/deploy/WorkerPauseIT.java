package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker in a JVM of its own is stopped (SIGSTOP: a long GC pause, a frozen VM) while the node pushes it a job. The
 * push waits in the worker's socket; the node stops waiting for the answer, hands the claim back and pushes the
 * attempt to another worker, which runs it. When the stopped worker goes on it reads the old push: it must not run
 * it, or the job runs twice.
 */
class WorkerPauseIT {

    @Test
    void a_push_read_after_the_node_gave_up_on_it_is_not_run() throws Exception {
        Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();
        Path log = Path.of("target/paused-worker.log");
        // the stopped worker must stay registered however long a loaded machine takes: it is not silence under test
        try (Node node = Node.start(
                TestDatabase.freshDatabase("worker_pause"),
                "node-p",
                Map.of("ax.scheduler.workers.missed-heartbeats", "100"))) {
            Process paused = WorkerNode.startInOwnJvm(node.api.port, "pausable", log);
            WorkerNode steady = null;
            try {
                node.api.awaitWorkers(1, Duration.ofSeconds(60));
                // stopped only once it has read the node's answer to its registration: stopped before, it took the
                // answer for lost when it went on, registered again under a new id and refused the push made to the
                // first one (as it should), so the test saw neither a run nor a late-push refusal
                Await.until(Duration.ofSeconds(30), () -> read(log).contains("registered with"), () -> tail(log));
                signal("STOP", paused.pid());
                // timeoutMs 4000: the node waits 2 s for a push's answer
                String jobId = node.api.submit("{\"jobType\":\"echo\",\"executorApp\":\"pausable\","
                        + "\"params\":{\"say\":\"once\"},\"timeoutMs\":4000,\"maxRetries\":0}");
                Await.until(
                        Duration.ofSeconds(20),
                        () -> node.api.eventTypes(jobId).contains("JobHandedBack"),
                        () -> node.api.eventTypes(jobId).toString());

                steady = WorkerNode.start("steady", node.api.port, "pausable", runs, Map.of());
                node.api.awaitStatus(jobId, "SUCCEEDED");
                assertThat(runs).filteredOn(r -> r.jobId().equals(jobId)).hasSize(1);

                // stopped for longer than the node's wait plus the allowance for clocks (a push read within that
                // allowance
                // of the node giving up on it is still run: docs/api.md, "The push")
                Thread.sleep(1_500);
                signal("CONT", paused.pid());
                Await.until(
                        Duration.ofSeconds(20),
                        () -> read(log).contains("push of job " + jobId + " attempt 1 not run"),
                        () -> tail(log));
                Thread.sleep(1_000);
                assertThat(read(log))
                        .as("the stopped worker ran the push the node had given up on")
                        .doesNotContain("RAN " + jobId);
                assertThat(node.api.eventTypes(jobId)).containsOnlyOnce("JobStarted", "JobSucceeded");
            } finally {
                if (steady != null) steady.close();
                signal("CONT", paused.pid());
                paused.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -" + name + " " + pid).isZero();
    }

    private static String read(Path log) {
        try {
            // a line may be half written: read bytes as Latin-1, which never fails
            return Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String tail(Path log) {
        String text = read(log);
        return text.substring(Math.max(0, text.length() - 3_000));
    }
}
