package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.problem.IllegalTransitionException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

class OperatorCommandsTest {

    @Test
    void a_deadlock_is_a_lost_race_however_it_was_wrapped() {
        assertThat(OperatorCommands.lostALock(new CannotAcquireLockException("projection update")))
                .isTrue();
        assertThat(OperatorCommands.lostALock(new EventStoreException(
                        "append", new SQLException("Deadlock found when trying to get lock", "40001", 1213))))
                .isTrue();
        assertThat(OperatorCommands.lostALock(new IllegalStateException(
                        "handler", new SQLException("Lock wait timeout exceeded", "HY000", 1205))))
                .isTrue();
    }

    @Test
    void other_database_failures_are_not_retried() {
        assertThat(OperatorCommands.lostALock(new DataIntegrityViolationException(
                        "check",
                        new SQLIntegrityConstraintViolationException("CONSTRAINT no_999 failed", "23000", 4025))))
                .isFalse();
        assertThat(OperatorCommands.lostALock(new IllegalStateException("no cause")))
                .isFalse();
    }

    /** Counts what happened to each transaction; no database needed to see what is retried. */
    private static final class RecordingTransactions implements PlatformTransactionManager {

        final List<String> ends = new ArrayList<>();

        @Override
        public TransactionStatus getTransaction(TransactionDefinition definition) {
            return new SimpleTransactionStatus();
        }

        @Override
        public void commit(TransactionStatus status) {
            ends.add("commit");
        }

        @Override
        public void rollback(TransactionStatus status) {
            ends.add("rollback");
        }
    }

    @Test
    void work_whose_end_loses_a_race_runs_again_on_a_fresh_transaction() {
        RecordingTransactions transactions = new RecordingTransactions();
        OperatorCommands commands = new OperatorCommands(null, new TransactionTemplate(transactions));
        AtomicInteger attempts = new AtomicInteger();

        // a batch in one unit of work appends when its unit commits, at the end of the work: that is where it loses
        String answer = commands.inOneTransaction("schedule batch", () -> {
            if (attempts.incrementAndGet() == 1) throw new ConcurrencyException("sequence 0 of schedule s-1 taken");
            return "made";
        });

        assertThat(answer).isEqualTo("made");
        assertThat(transactions.ends).containsExactly("rollback", "commit");
    }

    @Test
    void work_that_keeps_losing_is_a_conflict_and_other_failures_are_not_retried() {
        RecordingTransactions transactions = new RecordingTransactions();
        OperatorCommands commands = new OperatorCommands(null, new TransactionTemplate(transactions));

        assertThatThrownBy(() -> commands.inOneTransaction("schedule batch", () -> {
                    throw new CannotAcquireLockException("deadlock at commit");
                }))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("schedule batch kept changing");
        assertThat(transactions.ends).hasSize(OperatorCommands.ATTEMPTS_ON_CONCURRENT_CHANGE);

        transactions.ends.clear();
        assertThatThrownBy(() -> commands.inOneTransaction("schedule batch", () -> {
                    throw new IllegalStateException("a bug");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(transactions.ends).containsExactly("rollback");
    }
}
