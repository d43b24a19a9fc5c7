package io.axscheduler.scheduler;

import io.axscheduler.api.Causes;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/** Whether a failure is the database being out of reach, rather than anything about the work itself. */
public final class DatabaseUnreachable {

    private DatabaseUnreachable() {}

    /** Whether the database answers a trivial query now: the way back from an outage is asked this way. */
    public static boolean answers(org.springframework.jdbc.core.JdbcOperations jdbc) {
        try {
            jdbc.queryForObject("SELECT 1", Integer.class);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A connection that could not be had or was lost (the pool's timeout, a refused or broken socket), however Spring,
     * Axon or the driver wrapped it.
     */
    public static boolean in(Throwable e) {
        return Causes.any(
                e,
                t -> t instanceof CannotGetJdbcConnectionException
                        || t instanceof CannotCreateTransactionException
                        || t instanceof DataAccessResourceFailureException
                        || t instanceof SQLTransientConnectionException
                        || t instanceof SQLNonTransientConnectionException
                        || t instanceof SQLException sql
                                && sql.getSQLState() != null
                                && sql.getSQLState().startsWith("08"));
    }
}
