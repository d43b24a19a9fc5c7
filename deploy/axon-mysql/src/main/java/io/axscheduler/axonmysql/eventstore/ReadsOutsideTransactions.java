package io.axscheduler.axonmysql.eventstore;

import java.util.function.Supplier;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The event store's transaction manager. Appends run in a transaction as before (Axon calls
 * {@link #executeInTransaction} for them, which joins the command's); a read made inside a transaction joins it; a
 * read made outside one runs as plain autocommit statements instead of a transaction of its own.
 *
 * <p>Axon opens a transaction for every read: for the saga's event reader, which polls after each commit, that is
 * {@code set autocommit=0}, the query, {@code COMMIT} and {@code set autocommit=1} per poll, a large share of a busy
 * node's statements. A
 * read of committed events under READ COMMITTED sees the same rows without the transaction: each statement reads its
 * own snapshot in either case.
 */
public final class ReadsOutsideTransactions implements TransactionManager {

    private final TransactionManager delegate;

    public ReadsOutsideTransactions(TransactionManager delegate) {
        this.delegate = delegate;
    }

    @Override
    public Transaction startTransaction() {
        return delegate.startTransaction();
    }

    @Override
    public <T> T fetchInTransaction(Supplier<T> read) {
        return TransactionSynchronizationManager.isActualTransactionActive()
                ? delegate.fetchInTransaction(read)
                : read.get();
    }
}
