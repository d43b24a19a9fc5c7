package io.axscheduler.query.metrics;

import java.util.ArrayList;
import java.util.List;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts a metric when the unit of work commits, so a rolled-back append counts nothing; never throws into it. */
public final class AfterCommit {

    private static final Logger log = LoggerFactory.getLogger(AfterCommit.class);
    private static final String PENDING = AfterCommit.class.getName();

    private AfterCommit() {}

    /** Runs {@code count} after the current unit of work commits, or at once outside one. */
    public static void run(Runnable count) {
        Runnable safe = () -> {
            try {
                count.run();
            } catch (RuntimeException e) {
                log.debug("metric dropped: {}", e.toString());
            }
        };
        if (!CurrentUnitOfWork.isStarted()) {
            safe.run();
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        List<Runnable> pending = root.getOrComputeResource(PENDING, key -> {
            List<Runnable> list = new ArrayList<>();
            root.afterCommit(u -> list.forEach(Runnable::run));
            return list;
        });
        pending.add(safe);
    }
}
