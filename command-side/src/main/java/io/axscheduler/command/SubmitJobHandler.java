package io.axscheduler.command;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.SubmitResult;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.modelling.command.Repository;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Creates jobs, keeping job keys unique. The key row is inserted in the transaction that appends JobCreated: a
 * second submit of the same key waits on the first one's row lock, then finds the key taken and answers with the
 * first job, so two concurrent submits make exactly one job.
 */
@Component
class SubmitJobHandler {

    private final Repository<Job> jobs;
    private final JdbcTemplate jdbc;
    private final QueryGateway queries;

    SubmitJobHandler(Repository<Job> jobs, JdbcTemplate jdbc, QueryGateway queries) {
        this.jobs = jobs;
        this.jdbc = jdbc;
        this.queries = queries;
    }

    @CommandHandler
    SubmitResult handle(SubmitJob command) throws Exception {
        if (command.jobKey() != null && !claimKey(command.jobKey(), command.jobId())) {
            return existingJobOf(command.jobKey());
        }
        jobs.newInstance(() -> new Job(command));
        return new SubmitResult(command.jobId(), true, JobStatus.WAITING);
    }

    private boolean claimKey(String jobKey, String jobId) {
        try {
            jdbc.update("INSERT INTO job_keys (job_key, job_id) VALUES (?, ?)", jobKey, jobId);
            return true;
        } catch (DuplicateKeyException taken) {
            return false;
        }
    }

    private SubmitResult existingJobOf(String jobKey) {
        String jobId = jdbc.queryForObject("SELECT job_id FROM job_keys WHERE job_key = ?", String.class, jobKey);
        Optional<JobView> job = queries.query(new FindJob(jobId), ResponseTypes.optionalInstanceOf(JobView.class)).join();
        return new SubmitResult(jobId, false, job.map(JobView::status).orElse(JobStatus.WAITING));
    }
}
