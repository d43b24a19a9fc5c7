package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.StartJob;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import java.util.Map;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Commands about remotely run attempts, sent on the node's behalf with the worker in their metadata. An outcome can
 * arrive before the dispatcher's StartJob (a fast job calls back before the push's answer is read), so finishing
 * starts the attempt first when it is still only claimed; the aggregate refuses whichever of the two comes second.
 */
@Component
public class WorkerCommands {

    /** Metadata key naming the worker that ran the attempt. */
    public static final String WORKER = "worker";

    private static final Logger log = LoggerFactory.getLogger(WorkerCommands.class);

    private final SchedulerCommands commands;
    private final String node;

    public WorkerCommands(SchedulerCommands commands, NodeProperties node) {
        this.commands = commands;
        this.node = node.id();
    }

    /** True when this call started the attempt, false when it had already started or moved on. */
    public boolean start(String jobId, int attempt, String worker) {
        return start(jobId, attempt, worker, Caller.SCHEDULER);
    }

    private boolean start(String jobId, int attempt, String worker, Caller by) {
        try {
            send(new StartJob(jobId, attempt, node, worker), worker, by);
            return true;
        } catch (IllegalTransitionException refused) {
            return false;
        }
    }

    /**
     * Sends SucceedJob or FailJob as {@code by} (the key whose callback told it, or the node's own decision); false
     * when the attempt already ended (a duplicate or late outcome).
     */
    public boolean finish(String jobId, int attempt, String worker, Object outcome, Caller by) {
        try {
            send(outcome, worker, by);
            return true;
        } catch (IllegalTransitionException notRunning) {
            // still only claimed: start it here. If the start is refused, the dispatcher's StartJob may just have
            // landed (or the attempt ended): either way the second try of the outcome tells which.
            start(jobId, attempt, worker, Caller.SCHEDULER); // the node's decision, not the reporter's
        }
        try {
            send(outcome, worker, by);
            return true;
        } catch (IllegalTransitionException refused) {
            log.debug("outcome of job {} attempt {} refused: {}", jobId, attempt, refused.getMessage());
            return false;
        }
    }

    /**
     * Sends a command on behalf of {@code by} (the audit trail's actor) whose refusal (the attempt already moved on)
     * is expected and ignored.
     */
    public void sendIgnoringRefusal(Object command, String worker, Caller by) {
        try {
            send(command, worker, by);
        } catch (IllegalTransitionException refused) {
            log.debug("{} refused: {}", command, refused.getMessage());
        }
    }

    /**
     * Another node may write the same job at the same moment — this node's StartJob after the push's answer, and the
     * worker's callback on another node starting and ending the attempt — and the second append loses the store's
     * compare-and-set. The command is then decided again on the job as it now stands (usually refused: the attempt
     * has moved on), instead of failing the push or answering the worker 500.
     */
    private void send(Object command, String worker, Caller by) {
        for (int attempt = 1; ; attempt++) {
            try {
                commands.sendAndWaitFor(by, command, Map.of(WORKER, worker));
                return;
            } catch (ConcurrencyException lost) {
                if (attempt >= RACE_ATTEMPTS) throw lost;
                log.debug("{} met another node's write of the job; decided again: {}", command, lost.getMessage());
            }
        }
    }

    static final int RACE_ATTEMPTS = 3;
}
