package io.axscheduler.api.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Many job commands in one transaction: the node's claims, starts and outcomes travel this way, so a batch costs one
 * commit and one batched event append instead of one of each per job. Each command is decided on its own — a refused
 * one is answered as refused and the others still apply — but they commit together: a failure of the append (another
 * node moved one of the jobs meanwhile) fails the whole batch, and the sender retries the commands one by one.
 */
public record JobCommandBatch(List<JobCommand> commands) {

    public static final int MAX_COMMANDS = 1000;
    /**
     * How a refusal begins when the batch was sent holding row locks and the job's aggregate was busy with another
     * command: not a decision of the job, the sender may try again later.
     */
    public static final String BUSY = "busy: ";

    public JobCommandBatch {
        commands = List.copyOf(commands);
        if (commands.size() > MAX_COMMANDS) {
            throw new IllegalArgumentException(
                    "a batch holds at most " + MAX_COMMANDS + " commands, not " + commands.size());
        }
    }

    /** For each command, in order: null when it was applied, else why the job refused it. */
    public record Result(List<String> refusals) {

        public Result {
            refusals = Collections.unmodifiableList(new ArrayList<>(refusals));
        }
    }
}
