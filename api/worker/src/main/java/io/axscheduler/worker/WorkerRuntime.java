package io.axscheduler.worker;

import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.api.worker.WorkerRegistered;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * The worker's membership: registers once the web server listens (so the address is real), heartbeats at the
 * interval the scheduler asks for, registers again when the scheduler no longer knows it (it was silent too long),
 * and on shutdown stops taking pushes, lets running jobs finish for the grace period, and deregisters — which makes
 * the scheduler time out what is left and run it elsewhere. A worker the scheduler took out (410: an admin removed
 * it) stops taking jobs until the service restarts; one whose key the scheduler refuses (401) asks to register every
 * {@value #REFUSED_RETRY_MS} ms. Either way its running jobs are told to stop: the scheduler gave them up.
 */
public class WorkerRuntime implements SmartLifecycle, WorkerRuns.Reporter {

    private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);

    private final AxWorkerProperties properties;
    private final SchedulerClient scheduler;
    private final ApplicationContext context;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ax-worker-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ax-worker-callbacks");
        t.setDaemon(true);
        return t;
    });
    /** Callbacks waiting to be tried again. */
    private final AtomicInteger pending = new AtomicInteger();

    static final long MAX_BACKOFF_MS = 5000;

    /** How soon a registration the scheduler refused (4xx) is asked again. */
    static final long REFUSED_RETRY_MS = 30_000;

    private WorkerRuns runs;
    private volatile WorkerRegistered registration;
    private volatile boolean running;
    /** Taken out by the scheduler (410): no heartbeats or registrations until the service restarts. */
    private volatile boolean removed;
    /** Why the worker is not registered, or its last heartbeat failed; null when all is well. */
    private volatile String problem = "not registered yet";

    /** Why the worker takes no jobs, or its last call to the scheduler failed; null while it is registered and heard. */
    public String problem() {
        return problem;
    }

    /** The secret of the current registration, or null before the worker has registered. */
    String secret() {
        WorkerRegistered current = registration;
        return current == null ? null : current.secret();
    }

    public WorkerRuntime(AxWorkerProperties properties, SchedulerClient scheduler, ApplicationContext context) {
        this.properties = properties;
        this.scheduler = scheduler;
        this.context = context;
    }

    void runsWith(WorkerRuns runs) {
        this.runs = runs;
    }

    /** Whether the scheduler took this worker out (an admin removed it, or revoked its key). */
    public boolean removed() {
        return removed;
    }

    public String workerId() {
        WorkerRegistered r = registration;
        return r == null ? null : r.workerId();
    }

    @Override
    public void start() {
        running = true;
        ticks.execute(this::tick);
    }

    /**
     * The scheduler took this worker out (an admin removed it, or its key was revoked or expired): registering again
     * would undo that, so it takes no more jobs until the service restarts, and stops what still runs. Said by a 410
     * on a heartbeat, or at once by a stop the scheduler pushes with the worker's secret.
     */
    synchronized void takenOut(String why) {
        if (removed) return;
        WorkerRegistered current = registration;
        String workerId = current == null ? "(not registered)" : current.workerId();
        log.error(
                "the scheduler took worker {} out: {}. This worker takes no more jobs until the service restarts",
                workerId,
                why);
        problem = "taken out by the scheduler: " + why;
        registration = null;
        removed = true;
        runs.refuseNewRuns();
        stopGivenUpRuns("the scheduler took worker " + workerId + " out");
    }

    /** What the health says is wrong (null: nothing); a worker taken out keeps saying that, whatever a tick saw. */
    private void problem(String what) {
        if (!removed) problem = what;
    }

    /** Registers when not registered, heartbeats otherwise; reschedules itself at the scheduler's interval. */
    private void tick() {
        if (removed) return;
        long next = 2000;
        try {
            WorkerRegistered current = registration;
            if (current == null) {
                WorkerRegistered made = scheduler.register(new RegisterWorker(
                        app(), address(), runs.jobTypes(), properties.capacity(), properties.namespace()));
                // taken out meanwhile (a stop pushed on another thread): the registration is not used, and goes silent
                synchronized (this) {
                    if (removed) return;
                    registration = made;
                }
                log.info("registered with {} as {} for {}", scheduler.lastAnswered(), made.workerId(), runs.jobTypes());
                next = made.heartbeatIntervalMs();
                problem(null);
            } else {
                SchedulerClient.Answer answer = scheduler.heartbeat(current.workerId(), runs.inFlight());
                next = current.heartbeatIntervalMs();
                if (answer.ok()) {
                    problem(null);
                    scheduler.stopsIn(answer).forEach(runs::stopRun);
                } else if (answer.status() == 410) {
                    takenOut(scheduler.detailOf(answer));
                    return;
                } else if (answer.status() == 401) {
                    // the key was revoked or has expired: the scheduler took its workers out and gave their runs up
                    log.error(
                            "the scheduler refuses the API key of worker {} (401: revoked or expired?); its running"
                                    + " jobs stop, and it asks to register again every {} s",
                            current.workerId(),
                            REFUSED_RETRY_MS / 1000);
                    problem("the scheduler refuses its API key (401)");
                    registration = null;
                    stopGivenUpRuns("the scheduler refuses the API key of worker " + current.workerId());
                    next = REFUSED_RETRY_MS;
                } else if (answer.status() == 404) {
                    problem("no longer known to the scheduler; registering again");
                    log.warn("the scheduler no longer knows worker {}; registering again", current.workerId());
                    registration = null;
                    // removed as silent (this worker was paused, or cut off): its runs were timed out and run again
                    // elsewhere, and their outcomes would be refused
                    stopGivenUpRuns("the scheduler removed worker " + current.workerId() + " as silent");
                    next = 0;
                } else {
                    problem("heartbeat failed: " + answer.status() + " " + answer.body());
                    log.warn("heartbeat of {} failed: {} {}", current.workerId(), answer.status(), answer.body());
                }
            }
        } catch (SchedulerClient.RegistrationRefused refused) {
            if (refused.ofTheRequest()) {
                // a wrong or revoked key, an address the scheduler does not allow, another namespace: said as such,
                // and asked again less often, since only a change of settings on one side mends it
                log.warn(
                        "the scheduler at {} refuses to register this worker (app {}); asked again in {} s: {}",
                        properties.schedulerUrl(),
                        app(),
                        REFUSED_RETRY_MS / 1000,
                        refused.getMessage());
                next = REFUSED_RETRY_MS;
                problem("the scheduler refuses to register it: " + refused.getMessage());
            } else {
                log.warn("cannot reach the scheduler at {}: {}", properties.schedulerUrl(), refused.getMessage());
                problem("cannot reach the scheduler: " + refused.getMessage());
            }
        } catch (RuntimeException e) {
            log.warn("cannot reach the scheduler at {}: {}", properties.schedulerUrl(), e.getMessage());
            problem("cannot reach the scheduler: " + e.getMessage());
        }
        if (running) ticks.schedule(this::tick, next, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs under a registration that has ended: the scheduler gives them up (times them out, to run again elsewhere)
     * and would refuse their outcomes, so they stop here.
     */
    private void stopGivenUpRuns(String why) {
        int told = runs.cancelRunning(why);
        if (told > 0) log.warn("told {} running jobs to stop: {}", told, why);
    }

    /**
     * Tells the scheduler an attempt's outcome: at once, on the run's thread, and when no node could take it (all
     * unreachable or unavailable: a restart, a database outage), again from a thread of its own, backing off up to
     * {@value #MAX_BACKOFF_MS} ms, for {@code callback-retry-ms}; after that the attempt's run deadline decides
     * there. An outcome that arrives after the deadline changes nothing, so trying long costs nothing.
     */
    @Override
    public void report(JobCallback outcome) {
        deliver(outcome, System.currentTimeMillis(), 1);
    }

    @Override
    public void reportSoon(JobCallback outcome) {
        deliverLater(outcome, System.currentTimeMillis(), 1, 0);
    }

    /** Delivery try {@code attempt} of an outcome first tried at {@code since}, from the callbacks' thread. */
    private void deliverLater(JobCallback outcome, long since, int attempt, long delayMs) {
        pending.incrementAndGet();
        try {
            retries.schedule(
                    () -> {
                        try {
                            deliver(outcome, since, attempt);
                        } finally {
                            pending.decrementAndGet();
                        }
                    },
                    delayMs,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            pending.decrementAndGet();
        }
    }

    private void deliver(JobCallback outcome, long since, int attempt) {
        WorkerRegistered current = registration;
        if (current == null || !current.workerId().equals(outcome.workerId())) {
            log.warn(
                    "outcome of job {} attempt {} not reported: the registration it ran under has ended (this"
                            + " worker registered again, was taken out, or its key was refused)",
                    outcome.jobId(),
                    outcome.attempt());
            return;
        }
        SchedulerClient.Answer answer = scheduler.callback(outcome, current.secret());
        if (answer.ok()) return;
        if (!SchedulerClient.unavailable(answer) && answer.status() / 100 == 4) {
            log.warn(
                    "callback for job {} attempt {} refused ({}): {}",
                    outcome.jobId(),
                    outcome.attempt(),
                    answer.status(),
                    answer.body());
            return;
        }
        long waited = System.currentTimeMillis() - since;
        if (waited >= properties.callbackRetryMs() || retries.isShutdown()) {
            log.warn(
                    "callback for job {} attempt {} not delivered in {} ms ({} tries); last answer {} {}",
                    outcome.jobId(),
                    outcome.attempt(),
                    waited,
                    attempt,
                    answer.status(),
                    answer.body());
            return;
        }
        if (attempt == 1)
            log.info(
                    "callback for job {} attempt {} not delivered ({}); trying again for up to {} ms",
                    outcome.jobId(),
                    outcome.attempt(),
                    answer.status(),
                    properties.callbackRetryMs());
        deliverLater(outcome, since, attempt + 1, Math.min(MAX_BACKOFF_MS, 200L << Math.min(attempt - 1, 5)));
    }

    @Override
    public void stop() {
        running = false;
        long graceEnds = System.currentTimeMillis() + properties.shutdownGraceMs();
        if (runs.inFlight() > 0)
            log.info(
                    "stopping: taking no new jobs, waiting up to {} ms for {} running",
                    properties.shutdownGraceMs(),
                    runs.inFlight());
        runs.stop(properties.shutdownGraceMs());
        // outcomes still waiting for a node get what is left of the grace: told before the deregistration, they
        // count; after it, the scheduler has timed their attempts out
        Drain.untilZero(pending, graceEnds);
        retries.shutdownNow();
        WorkerRegistered current = registration;
        if (current != null) {
            SchedulerClient.Answer answer = scheduler.deregister(current.workerId());
            log.info("deregistered {} ({})", current.workerId(), answer.status());
        }
        ticks.shutdownNow();
        runs.cancelAll();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the web server starts (so its port is known) and stopped before it (so running jobs can still report). */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    /** {@code ax.worker.app}, else the service's {@code spring.application.name}, else {@code ax-worker}. */
    String app() {
        if (properties.app() != null && !properties.app().isBlank()) return properties.app();
        String name = context.getEnvironment().getProperty("spring.application.name");
        return name != null && !name.isBlank() ? name : "ax-worker";
    }

    /** {@code ax.worker.address}, else this service's port on 127.0.0.1 under its servlet context path. */
    String address() {
        if (properties.address() != null && !properties.address().isBlank()) return properties.address();
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        String path = context.getEnvironment().getProperty("server.servlet.context-path", "");
        if (path.endsWith("/")) path = path.substring(0, path.length() - 1);
        return "http://127.0.0.1:" + port + path;
    }
}
