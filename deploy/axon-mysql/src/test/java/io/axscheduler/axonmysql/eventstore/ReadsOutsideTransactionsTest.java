package io.axscheduler.axonmysql.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronizationManager;

class ReadsOutsideTransactionsTest {

    private final AtomicInteger started = new AtomicInteger();
    private final TransactionManager counting = () -> {
        started.incrementAndGet();
        return new Transaction() {
            @Override
            public void commit() {}

            @Override
            public void rollback() {}
        };
    };
    private final ReadsOutsideTransactions transactions = new ReadsOutsideTransactions(counting);

    @Test
    void a_read_outside_a_transaction_opens_none() {
        assertThat(transactions.fetchInTransaction(() -> "events")).isEqualTo("events");
        assertThat(started).hasValue(0);
    }

    @Test
    void a_read_while_a_spring_transaction_is_active_goes_to_the_delegate_which_joins_it() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        try {
            assertThat(transactions.fetchInTransaction(() -> "events")).isEqualTo("events");
        } finally {
            TransactionSynchronizationManager.setActualTransactionActive(false);
        }
        assertThat(started).hasValue(1);
    }

    @Test
    void an_append_always_goes_to_the_delegate() {
        transactions.executeInTransaction(() -> {});
        assertThat(started).hasValue(1);
    }
}
