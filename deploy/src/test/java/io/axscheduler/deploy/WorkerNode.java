package io.axscheduler.deploy;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.worker.AxWorkerAutoConfiguration;
import io.axscheduler.worker.demo.EchoHandler;
import io.axscheduler.worker.demo.FlakyHandler;
import io.axscheduler.worker.demo.SleepHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.ServletWebServerFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A demo worker (echo, sleep, flaky) started in this JVM on a random port, talking to a node over real HTTP. Every
 * run its handlers finish is added to {@code runs}. The application class is not a {@code @Configuration}, and only
 * the web and worker auto-configurations are imported: the test classpath also holds the whole scheduler.
 */
final class WorkerNode implements AutoCloseable {

    record Run(String worker, String jobId, int attempt, Object shardIndex, Object shardTotal, boolean succeeded) {}

    @ImportAutoConfiguration({
        ServletWebServerFactoryAutoConfiguration.class,
        DispatcherServletAutoConfiguration.class,
        WebMvcAutoConfiguration.class,
        HttpMessageConvertersAutoConfiguration.class,
        JacksonAutoConfiguration.class,
        AxWorkerAutoConfiguration.class
    })
    static class WorkerApplication {}

    final String name;
    final ConfigurableApplicationContext context;

    private WorkerNode(String name, ConfigurableApplicationContext context) {
        this.name = name;
        this.context = context;
    }

    static WorkerNode start(String name, int schedulerPort, String app, Queue<Run> runs, Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("server.port", "0");
        all.put("ax.worker.scheduler-url", "http://127.0.0.1:" + schedulerPort);
        all.put("ax.worker.app", app);
        all.put("ax.worker.capacity", "4");
        all.put("ax.worker.api-key", Api.ADMIN_KEY);
        all.put("spring.main.banner-mode", "off");
        all.putAll(settings);
        List<String> args = new ArrayList<>();
        all.forEach((k, v) -> args.add("--" + k + "=" + v));
        WorkerNode worker = new WorkerNode(name, run(name, runs, args.toArray(String[]::new)));
        // the node lists a worker as soon as its row is written, a moment before the worker has read its id back
        Await.until(
                Duration.ofSeconds(30), () -> worker.workerId() != null, () -> "worker " + name + " never registered");
        return worker;
    }

    /**
     * A worker in a JVM of its own (to be killed or stopped by signals): the arguments name the scheduler, app and
     * port. Each run it finishes is printed as {@code RAN <jobId> <attempt>}, for the test to read from its output.
     */
    public static void main(String[] args) {
        Queue<Run> printed = new ConcurrentLinkedQueue<>() {
            @Override
            public boolean add(Run run) {
                System.out.println("RAN " + run.jobId() + " " + run.attempt());
                return super.add(run);
            }
        };
        run("separate-jvm", printed, args);
    }

    /** A demo worker of {@code app} in a JVM of its own (see {@link #main}), its output in {@code log}. */
    static Process startInOwnJvm(int schedulerPort, String app, java.nio.file.Path log) throws java.io.IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkerNode.class.getName(),
                        "--server.port=0",
                        "--ax.worker.scheduler-url=http://127.0.0.1:" + schedulerPort,
                        "--ax.worker.app=" + app,
                        "--ax.worker.capacity=4",
                        "--ax.worker.api-key=" + Api.ADMIN_KEY,
                        "--spring.main.banner-mode=off")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static ConfigurableApplicationContext run(String name, Queue<Run> runs, String[] args) {
        return new SpringApplicationBuilder(WorkerApplication.class)
                .web(WebApplicationType.SERVLET)
                .initializers(ctx -> {
                    for (JobHandler handler : List.of(new EchoHandler(), new SleepHandler(), new FlakyHandler())) {
                        ctx.getBeanFactory()
                                .registerSingleton("handler-" + handler.jobType(), new Recording(handler, name, runs));
                    }
                })
                .run(args);
    }

    int port() {
        return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
    }

    String workerId() {
        return context.getBean(io.axscheduler.worker.WorkerRuntime.class).workerId();
    }

    /** Whether the scheduler took this worker out (410 on a heartbeat). */
    boolean removed() {
        return context.getBean(io.axscheduler.worker.WorkerRuntime.class).removed();
    }

    @Override
    public void close() {
        context.close();
    }

    private record Recording(JobHandler inner, String worker, Queue<Run> runs) implements JobHandler {

        @Override
        public String jobType() {
            return inner.jobType();
        }

        @Override
        public String execute(JobContext context) throws Exception {
            boolean succeeded = false;
            try {
                String result = inner.execute(context);
                succeeded = true;
                return result;
            } finally {
                runs.add(new Run(
                        worker,
                        context.jobId(),
                        context.attempt(),
                        context.params().get("shardIndex"),
                        context.params().get("shardTotal"),
                        succeeded));
            }
        }
    }
}
