package io.axscheduler.scheduler;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/**
 * A job this node claimed: {@code attempt} is the number the run has. {@code executorApp} and {@code routeStrategy}
 * (both may be null) send it to remote workers. {@code started}: the claim batch also started it here, in-process
 * (JobStarted is already written); a job for remote workers is started when a worker takes it. {@code dueLocalMs}:
 * the moment of this JVM's clock by which the job is due (a job claimed ahead of its time runs no earlier).
 * {@code namespace}: the job's; only workers registered in it are pushed the job.
 */
public record ClaimedJob(
        String jobId,
        String jobType,
        int attempt,
        String jobKey,
        String paramsJson,
        String executorApp,
        String routeStrategy,
        long timeoutMs,
        boolean started,
        long dueLocalMs,
        String namespace) {

    public ClaimedJob {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    public ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson) {
        this(jobId, jobType, attempt, jobKey, paramsJson, null, null, 30_000, false, 0, null);
    }

    /** The job's params as its handler sees them, read back from their JSON column. */
    public Map<String, Object> params(ObjectMapper json) {
        if (paramsJson == null || paramsJson.isEmpty()) return Map.of();
        try {
            return json.readValue(paramsJson, new TypeReference<Map<String, Object>>() {});
        } catch (Exception e) {
            throw new IllegalStateException("params of job " + jobId + " are not a JSON object", e);
        }
    }

    public ClaimedJob startedHere() {
        return new ClaimedJob(
                jobId,
                jobType,
                attempt,
                jobKey,
                paramsJson,
                executorApp,
                routeStrategy,
                timeoutMs,
                true,
                dueLocalMs,
                namespace);
    }
}
