package io.axscheduler.scheduler.run;

import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.scheduler.remote.WorkerRegistry;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Component;

/**
 * The job types a submit may name: those a handler on this node runs, and those the remote workers registered in the
 * job's namespace run; never the scheduler's own ({@link JobTypeCatalog#RESERVED_PREFIX}).
 */
@Component
public class JobTypes implements JobTypeCatalog {

    private final JobExecutors executors;
    private final WorkerRegistry workers;

    public JobTypes(JobExecutors executors, WorkerRegistry workers) {
        this.executors = executors;
        this.workers = workers;
    }

    @Override
    public boolean knows(String namespace, String jobType) {
        if (JobTypeCatalog.reserved(jobType)) return false;
        return executors.runsInProcess(jobType) || workers.runsJobType(namespace, jobType);
    }

    @Override
    public boolean workersRun(String namespace, String jobType) {
        return !JobTypeCatalog.reserved(jobType) && workers.runsJobType(namespace, jobType);
    }

    @Override
    public Set<String> jobTypes(String namespace) {
        Set<String> types = new TreeSet<>(executors.inProcessTypes());
        types.addAll(workers.jobTypes(namespace));
        types.removeIf(JobTypeCatalog::reserved);
        return types;
    }

    @Override
    public Map<String, String> paramProblems(String jobType, Map<String, Object> params) {
        return executors.paramProblems(jobType, params);
    }
}
