package io.axscheduler.api.spi;

import java.util.Map;
import java.util.Set;

/**
 * The job types a job of a namespace may name: those a handler on this deployment's nodes runs, and those the remote
 * workers registered in that namespace run (a worker never runs another namespace's jobs). Submits of any other type
 * are refused, and the refusal lists only these.
 */
public interface JobTypeCatalog {

    /**
     * What the scheduler's own job types begin with (the delivery of alerts, {@code ax-alert}): no request names one,
     * neither a submit, a schedule nor a worker's registration; the scheduler submits them itself.
     */
    String RESERVED_PREFIX = "ax-";

    static boolean reserved(String jobType) {
        return jobType != null && jobType.startsWith(RESERVED_PREFIX);
    }

    boolean knows(String namespace, String jobType);

    Set<String> jobTypes(String namespace);

    /**
     * Whether a remote worker registered in {@code namespace} runs {@code jobType}: a job bound to an executor app runs
     * only on a worker, so a type the nodes alone run (a built-in one) is no type for it.
     */
    default boolean workersRun(String namespace, String jobType) {
        return knows(namespace, jobType);
    }

    /**
     * The problems this deployment's handler of {@code jobType} finds in {@code params} (see
     * {@link JobHandler#paramProblems}); none for a type only remote workers run, whose params they judge.
     */
    default Map<String, String> paramProblems(String jobType, Map<String, Object> params) {
        return Map.of();
    }
}
