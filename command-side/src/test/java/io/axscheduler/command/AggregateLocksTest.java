package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.Metadata;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.common.lock.DeadlockException;
import org.axonframework.common.lock.Lock;
import org.axonframework.common.lock.LockAcquisitionFailedException;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AggregateLocksTest {

    private final AggregateLocks locks = new AggregateLocks("job", 20_000);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void a_command_holding_rows_fails_at_once_on_a_busy_aggregate() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> holder = threads.submit(() -> {
            Lock lock = locks.obtainLock("j-1");
            held.countDown();
            release.await();
            lock.release();
            return null;
        });
        held.await();
        long started = System.nanoTime();
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(
                GenericCommandMessage.asCommandMessage("claim").andMetaData(Map.of(Metadata.HOLDS_ROW_LOCKS, true)));
        try {
            assertThatThrownBy(() -> locks.obtainLock("j-1")).isInstanceOf(LockAcquisitionFailedException.class);
        } finally {
            unit.rollback();
        }
        // at once: far below the 20 s a waiting command would wait
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
        // without rows held, a command waits for the holder instead, and gets the lock once it is released
        Future<Boolean> waiting = threads.submit(() -> {
            locks.obtainLock("j-1").release();
            return true;
        });
        Thread.sleep(300);
        assertThat(waiting).isNotDone();
        release.countDown();
        holder.get(5, TimeUnit.SECONDS);
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
        locks.obtainLock("j-1").release();
        assertThat(locks.locksInUse()).isZero();
    }

    @Test
    void two_threads_taking_two_aggregates_in_opposite_orders_are_told_of_the_cycle() throws Exception {
        AggregateLocks patient = new AggregateLocks("job", 30_000);
        CountDownLatch bothHeld = new CountDownLatch(2);
        Future<Throwable> first = threads.submit(() -> crossing(patient, "a", "b", bothHeld));
        Future<Throwable> second = threads.submit(() -> crossing(patient, "b", "a", bothHeld));
        Throwable one = first.get(10, TimeUnit.SECONDS);
        Throwable other = second.get(10, TimeUnit.SECONDS);
        assertThat(one instanceof DeadlockException || other instanceof DeadlockException)
                .as("%s / %s", one, other)
                .isTrue();
        assertThat(patient.locksInUse()).isZero();
    }

    private static Throwable crossing(AggregateLocks locks, String mine, String theirs, CountDownLatch bothHeld)
            throws InterruptedException {
        Lock held = locks.obtainLock(mine);
        try {
            bothHeld.countDown();
            bothHeld.await();
            locks.obtainLock(theirs).release();
            return null;
        } catch (RuntimeException e) {
            return e;
        } finally {
            held.release();
        }
    }
}
