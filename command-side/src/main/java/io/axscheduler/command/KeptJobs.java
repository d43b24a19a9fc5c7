package io.axscheduler.command;

import org.axonframework.modelling.command.AggregateNotFoundException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps an ended job from being revived and deleted at once. The retention's purge (scheduler-saga's
 * {@code PurgeFinishedJobs}) locks a job's job_queue row, then deletes its events and rows in that transaction; a
 * re-run, the one command an ended job takes, locks the same row in its own transaction before it appends. Whichever
 * comes second waits for the first: a purge then finds the job no longer ended and keeps it, and a re-run finds the
 * job's events gone and answers as for any unknown job. (The re-run's job was loaded before the lock; its events being
 * gone is what tells.)
 */
@Component
class KeptJobs {

    private final JdbcTemplate jdbc;

    KeptJobs(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the job's row for the rest of the command's transaction; an unknown job if it was purged meanwhile. */
    void lockOrUnknown(String jobId) {
        jdbc.query("SELECT job_id FROM job_queue WHERE job_id = ? FOR UPDATE", rs -> {}, jobId);
        Boolean kept = jdbc.queryForObject(
                "SELECT EXISTS (SELECT 1 FROM DomainEventEntry WHERE aggregateIdentifier = ?)", Boolean.class, jobId);
        if (!Boolean.TRUE.equals(kept))
            throw new AggregateNotFoundException(jobId, "job " + jobId + " was deleted past its retention");
    }
}
