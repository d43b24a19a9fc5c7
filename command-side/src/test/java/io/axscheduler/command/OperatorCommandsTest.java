package io.axscheduler.command;

import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorCommandsTest {

    @Test
    void a_deadlock_is_a_lost_race_however_it_was_wrapped() {
        assertThat(OperatorCommands.lostALock(new CannotAcquireLockException("projection update"))).isTrue();
        assertThat(OperatorCommands.lostALock(new EventStoreException("append",
                new SQLException("Deadlock found when trying to get lock", "40001", 1213)))).isTrue();
        assertThat(OperatorCommands.lostALock(new IllegalStateException("handler",
                new SQLException("Lock wait timeout exceeded", "HY000", 1205)))).isTrue();
    }

    @Test
    void other_database_failures_are_not_retried() {
        assertThat(OperatorCommands.lostALock(new DataIntegrityViolationException("check",
                new SQLIntegrityConstraintViolationException("CONSTRAINT no_999 failed", "23000", 4025)))).isFalse();
        assertThat(OperatorCommands.lostALock(new IllegalStateException("no cause"))).isFalse();
    }
}
