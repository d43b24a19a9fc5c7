package io.axscheduler.api.spi;

import java.util.Map;
import java.util.Set;

/** The job types some executor on this deployment can run; submits of any other type are refused. */
public interface JobTypeCatalog {

    boolean knows(String jobType);

    Set<String> jobTypes();

    /**
     * The problems this deployment's handler of {@code jobType} finds in {@code params} (see
     * {@link JobHandler#paramProblems}); none for a type only remote workers run, whose params they judge.
     */
    default Map<String, String> paramProblems(String jobType, Map<String, Object> params) {
        return Map.of();
    }
}
