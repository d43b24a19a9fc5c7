package io.axscheduler.scheduler.claim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.ClaimJob;
import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.StartJob;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.run.DispatchClaimed;
import io.axscheduler.scheduler.run.JobExecutors;
import io.axscheduler.scheduler.run.ReportOutcomes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A schedule fire whose job is due within {@code claim-ahead-ms} when it is made — every fire made on time with the
 * default {@code fire-ahead-ms}, and every fire of a loop behind its schedules, a misfire fired late, a node catching
 * up after a restart — and runs on this node's pools is claimed and started in the fire's own transaction:
 * {@code JobClaimed} and {@code JobStarted} follow {@code JobCreated} in the same append, the {@code job_queue} row is
 * written once, already running, and no claim pass has to find the job. A job made further ahead than {@code claim-ahead-ms} is left to the claim scan, as is a job for
 * remote workers, one of a type whose pool the claim scan found full with work waiting (that work goes first), of a
 * schedule held back, and every job when {@code ax.scheduler.schedules.start-due-fires} is off, while the job scan is
 * paused, the node is stopping or outcomes are behind, and when its pool has no free slot.
 * <p>
 * Each such job takes a slot of its type's pool first ({@link JobExecutors#takeSlot}), as a claim pass takes its
 * slots before it claims; the slot is handed back when the claim or start is refused or the fire's transaction rolls
 * back, and the job runs once the transaction has committed. A node that dies in between leaves a started job whose
 * run deadline times it out, as for a job a claim pass started.
 */
@Component
public class StartDueFires {

    private static final Logger log = LoggerFactory.getLogger(StartDueFires.class);

    private final boolean enabled;
    private final JobExecutors executors;
    private final ScanDueJobs scan;
    private final ReportOutcomes outcomes;
    private final DispatchClaimed dispatcher;
    private final SchedulerCommands commands;
    private final DatabaseTime databaseTime;
    private final ObjectMapper json;
    private final NodeMetrics metrics;
    private final SchedulerProperties.Scan settings;
    private final String node;

    public StartDueFires(
            JobExecutors executors,
            ScanDueJobs scan,
            ReportOutcomes outcomes,
            DispatchClaimed dispatcher,
            SchedulerCommands commands,
            DatabaseTime databaseTime,
            ObjectMapper json,
            NodeMetrics metrics,
            SchedulerProperties properties,
            NodeProperties node) {
        this.enabled =
                properties.schedules().startDueFires() && properties.scan().enabled();
        this.executors = executors;
        this.scan = scan;
        this.outcomes = outcomes;
        this.dispatcher = dispatcher;
        this.commands = commands;
        this.databaseTime = databaseTime;
        this.json = json;
        this.metrics = metrics;
        this.settings = properties.scan();
        this.node = node.id();
    }

    /**
     * The starts of one fire transaction, whose fires were planned at {@code databaseNowMs}; must be called inside that
     * transaction.
     */
    public Starts inTransaction(long databaseNowMs) {
        // a transaction that fires twice (fire batches joined in a caller's transaction) keeps one set of starts
        if (TransactionSynchronizationManager.getResource(this) instanceof Starts starts) {
            starts.databaseNowMs = databaseNowMs;
            return starts;
        }
        Starts starts = new Starts(databaseNowMs);
        TransactionSynchronizationManager.registerSynchronization(starts);
        TransactionSynchronizationManager.bindResource(this, starts);
        return starts;
    }

    /**
     * Whether the job is being started by the fire of the current transaction: work whose claim is already in hand
     * needs no claim pass woken for it.
     */
    boolean startedInThisTransaction(String jobId) {
        return TransactionSynchronizationManager.getResource(this) instanceof Starts starts
                && starts.sent.containsKey(jobId);
    }

    /**
     * The jobs of one fire transaction this node claims and starts in it: {@link #offer} each job as it is submitted,
     * then {@link #send} them, in the same unit of work, before it commits.
     */
    public final class Starts implements TransactionSynchronization {

        private long databaseNowMs;
        /** Offered and given a slot, not yet sent. */
        private final Map<String, ClaimedJob> taken = new LinkedHashMap<>();
        /** Claimed and started in the transaction: they run when it commits. */
        private final Map<String, ClaimedJob> sent = new LinkedHashMap<>();

        private Starts(long databaseNowMs) {
            this.databaseNowMs = databaseNowMs;
        }

        /**
         * Takes the submitted job to be claimed and started with its fire when it is due by then, runs on this node's
         * pools and one of them has a free slot for it.
         */
        public void offer(SubmitJob submit) {
            if (!enabled
                    || submit.executorApp() != null
                    || submit.runAt().toEpochMilli() > databaseNowMs + settings.claimAheadMs()
                    || !executors.runsInProcess(submit.jobType())
                    || scan.isPaused()
                    || scan.backlogged(submit.jobType())
                    || dispatcher.isStopping()
                    || outcomes.behind()) {
                return;
            }
            ClaimedJob job = new ClaimedJob(
                    submit.jobId(),
                    submit.jobType(),
                    1,
                    submit.jobKey(),
                    paramsJson(submit),
                    null,
                    submit.routeStrategy(),
                    submit.timeoutMs(),
                    true,
                    databaseTime.localMs(submit.runAt().toEpochMilli()),
                    submit.namespace());
            if (executors.takeSlot(submit.jobType())) taken.put(submit.jobId(), job);
        }

        /**
         * Claims and starts the jobs taken since the last send, as one batch in the caller's unit of work. A job that
         * refuses (none should: it was created in this unit of work, whose thread holds its lock) gives its slot back:
         * refused the claim, it waits for the claim scan; claimed but refused the start, it goes back to waiting when
         * its lease ends, as after a claim pass.
         */
        public void send() {
            if (taken.isEmpty()) return;
            Instant leaseUntil = Instant.ofEpochMilli(databaseTime.approximateNowMs() + settings.leaseMs());
            List<JobCommand> batch = new ArrayList<>(taken.size() * 2);
            for (ClaimedJob job : taken.values()) {
                batch.add(new ClaimJob(job.jobId(), node, leaseUntil));
                batch.add(new StartJob(job.jobId(), job.attempt(), node, DispatchClaimed.IN_PROCESS_WORKER));
            }
            List<String> refusals = commands.sendBatchHoldingRows(batch);
            int i = 0;
            for (var it = taken.values().iterator(); it.hasNext(); i += 2) {
                ClaimedJob job = it.next();
                String refusal = refusals.get(i) != null ? refusals.get(i) : refusals.get(i + 1);
                if (refusal == null) {
                    sent.put(job.jobId(), job);
                } else {
                    log.debug("job {} of a due fire left to the claim scan: {}", job.jobId(), refusal);
                    executors.releaseSlots(job.jobType(), 1);
                }
                it.remove();
            }
        }

        /** Committed: the jobs sent run; rolled back (or offered and never sent): their slots are given back. */
        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(StartDueFires.this);
            taken.values().forEach(job -> executors.releaseSlots(job.jobType(), 1));
            if (status == STATUS_COMMITTED) {
                metrics.startedAtFire(sent.size());
                dispatcher.dispatch(new ArrayList<>(sent.values()));
            } else {
                sent.values().forEach(job -> executors.releaseSlots(job.jobType(), 1));
            }
            taken.clear();
            sent.clear();
        }
    }

    private String paramsJson(SubmitJob submit) {
        if (submit.params() == null || submit.params().isEmpty()) return null;
        try {
            return json.writeValueAsString(submit.params());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("params of job " + submit.jobId() + " cannot be written as JSON", e);
        }
    }
}
