package io.axscheduler.api.spi;

import java.util.Map;
import java.util.Set;

/**
 * The job types a job of a namespace may name: those a handler on this deployment's nodes runs, and those the remote
 * workers registered in that namespace run (a worker never runs another namespace's jobs). Submits of any other type
 * are refused, and the refusal lists only these.
 */
public interface JobTypeCatalog {

    boolean knows(String namespace, String jobType);

    Set<String> jobTypes(String namespace);

    /**
     * The problems this deployment's handler of {@code jobType} finds in {@code params} (see
     * {@link JobHandler#paramProblems}); none for a type only remote workers run, whose params they judge.
     */
    default Map<String, String> paramProblems(String jobType, Map<String, Object> params) {
        return Map.of();
    }
}
