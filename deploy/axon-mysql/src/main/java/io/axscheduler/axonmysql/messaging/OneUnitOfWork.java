package io.axscheduler.axonmysql.messaging;

import java.util.function.Supplier;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Runs work whose commands land together: the unit of work of each command sent inside nests in one unit, which hands
 * the events of all of them to the event store at the end, in one JDBC batch, and the subscribing projections see
 * them as one batch. Meant inside a transaction, which the commands' units join: commands and append then commit or
 * roll back together. A failure of any command rolls all of them back (their cached aggregates are evicted) and is
 * thrown.
 */
public final class OneUnitOfWork {

    private OneUnitOfWork() {}

    public static <R> R run(Supplier<R> work) {
        UnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        R result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            unit.rollback(e);
            throw e;
        }
        unit.commit();
        return result;
    }
}
