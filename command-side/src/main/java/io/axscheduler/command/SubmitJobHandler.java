package io.axscheduler.command;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.SubmitResult;
import io.axscheduler.api.problem.KeyReusedException;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.command.Repository;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Creates jobs, keeping job keys unique within their namespace (the same key in two namespaces makes two jobs). The
 * key row is inserted in the transaction that appends JobCreated: a second submit of the same key in the same
 * namespace waits on the first one's row lock, then finds the key taken and answers with the first job, so two
 * concurrent submits make exactly one job.
 *
 * <p>A submit sent with {@link Metadata#TAKEN_KEY_FAILS} has its key inserted as its outermost unit of work commits,
 * together with the other keys of that unit in multi-row INSERTs: a batch of 100 schedule fires writes its keys in one
 * statement instead of 100, each a round trip less. A taken key then fails the whole unit, which rolls back.
 */
@Component
class SubmitJobHandler {

    private final Repository<Job> jobs;
    private final JdbcTemplate jdbc;
    private final QueryGateway queries;
    /** ax_job_key_conflicts_total: submits answered with the job their key had already made. */
    private final Counter keyConflicts;

    SubmitJobHandler(
            Repository<Job> jobs, JdbcTemplate jdbc, QueryGateway queries, ObjectProvider<MeterRegistry> meters) {
        this.keyConflicts = Counter.builder("ax.job.key.conflicts")
                .description("submits whose job key had already made a job")
                .register(meters.getIfAvailable(SimpleMeterRegistry::new));
        this.jobs = jobs;
        this.jdbc = jdbc;
        this.queries = queries;
    }

    @CommandHandler
    SubmitResult handle(
            SubmitJob command,
            @MetaDataValue(Metadata.TAKEN_KEY_FAILS) Boolean takenKeyFails,
            @MetaDataValue(Metadata.REQUEST_HASH) String requestHash)
            throws Exception {
        if (command.jobKey() != null) {
            if (Boolean.TRUE.equals(takenKeyFails)) {
                keysAtCommit().add(command.jobKey(), command.namespace(), command.jobId());
            } else if (!claimKey(command.jobKey(), command.namespace(), command.jobId(), requestHash)) {
                SubmitResult first = existingJobOf(command.jobKey(), command.namespace(), requestHash);
                keyConflicts.increment();
                return first;
            }
        }
        jobs.newInstance(() -> new Job(command));
        return new SubmitResult(command.jobId(), true, JobStatus.WAITING);
    }

    /** The keys the outermost unit of work inserts as it commits; registered with it by the first submit that asks. */
    private KeysAtCommit keysAtCommit() {
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        return root.getOrComputeResource(KeysAtCommit.class.getName(), name -> {
            KeysAtCommit keys = new KeysAtCommit();
            root.onPrepareCommit(unit -> keys.insert(jdbc));
            return keys;
        });
    }

    private boolean claimKey(String jobKey, String namespace, String jobId, String requestHash) {
        try {
            jdbc.update(
                    "INSERT INTO job_keys (job_key, namespace, job_id, request_hash) VALUES (?, ?, ?, ?)",
                    jobKey,
                    namespace,
                    jobId,
                    RequestFingerprint.bytes(requestHash));
            return true;
        } catch (DuplicateKeyException taken) {
            return false;
        }
    }

    /**
     * Job keys, their namespaces and their jobs, inserted together; the first taken one fails the insert, naming the
     * keys it held.
     */
    static final class KeysAtCommit {

        /** Rows per INSERT at most. */
        static final int MAX_ROWS = 500;

        /** Values per row: the key, its namespace, the job. */
        private static final int COLUMNS = 3;

        private final List<Object> rows = new ArrayList<>();

        void add(String jobKey, String namespace, String jobId) {
            rows.add(jobKey);
            rows.add(namespace);
            rows.add(jobId);
        }

        void insert(JdbcTemplate jdbc) {
            for (int from = 0; from < rows.size(); from += COLUMNS * MAX_ROWS) {
                List<Object> chunk = rows.subList(from, Math.min(rows.size(), from + COLUMNS * MAX_ROWS));
                try {
                    jdbc.update(
                            "INSERT INTO job_keys (job_key, namespace, job_id) VALUES "
                                    + String.join(", ", Collections.nCopies(chunk.size() / COLUMNS, "(?, ?, ?)")),
                            chunk.toArray());
                } catch (DuplicateKeyException taken) {
                    List<Object> keys = new ArrayList<>();
                    for (int i = 0; i < chunk.size(); i += COLUMNS) keys.add(chunk.get(i));
                    throw new DuplicateKeyException(
                            "a job key already made a job, so none of these is made: " + keys, taken);
                }
            }
        }
    }

    /**
     * The job {@code jobKey} made, as a taken key's answer; refused when the key was first sent with a request other
     * than {@code requestHash} (either not known: not compared).
     */
    private SubmitResult existingJobOf(String jobKey, String namespace, String requestHash) {
        Map<String, Object> key = jdbc.queryForMap(
                "SELECT job_id, request_hash FROM job_keys WHERE job_key = ? AND namespace = ?", jobKey, namespace);
        String jobId = (String) key.get("job_id");
        if (RequestFingerprint.differs((byte[]) key.get("request_hash"), requestHash))
            throw new KeyReusedException("jobKey", "job", jobId);
        Optional<JobView> job = queries.query(new FindJob(jobId), ResponseTypes.optionalInstanceOf(JobView.class))
                .join();
        return new SubmitResult(jobId, false, job.map(JobView::status).orElse(JobStatus.WAITING));
    }
}
