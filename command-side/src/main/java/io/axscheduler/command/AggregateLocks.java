package io.axscheduler.command;

import io.axscheduler.api.Metadata;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.axonframework.common.lock.DeadlockException;
import org.axonframework.common.lock.Lock;
import org.axonframework.common.lock.LockAcquisitionFailedException;
import org.axonframework.common.lock.LockFactory;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * The in-memory lock of each aggregate, one per identifier, as Axon's {@code PessimisticLockFactory} gives them, with
 * one difference: a command whose unit of work says {@link Metadata#HOLDS_ROW_LOCKS} does not wait for a lock another
 * thread holds, it fails at once with {@link LockAcquisitionFailedException}.
 * <p>
 * The scans lock read-model rows ({@code FOR UPDATE}) and then load the aggregates of those rows, while an operator's
 * command loads its aggregate first and updates the row as it commits. The first order waiting for the second is a
 * cycle the database cannot see (half of it is in this JVM): only its lock-wait timeout broke it, after 50 s. So
 * locks are always taken row first, aggregate second, and a thread holding rows never waits for an aggregate: the
 * scan skips a busy job and takes it on a later pass.
 * <p>
 * Threads that do wait (no rows held) wait in line, detect a cycle among these locks as Axon's factory does, and give
 * up after {@code ax.command.aggregate-lock-wait-ms}.
 */
public final class AggregateLocks implements LockFactory {

    /** What each thread waits for, across every factory: a cycle may span jobs and schedules. */
    private static final ConcurrentHashMap<Thread, OwnedLock> WAITING = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, OwnedLock> locks = new ConcurrentHashMap<>();
    private final String kind;
    private final long waitMs;

    public AggregateLocks(String kind, long waitMs) {
        if (waitMs < 1 || waitMs > 60_000)
            throw new IllegalArgumentException("ax.command.aggregate-lock-wait-ms must be 1..60000");
        this.kind = kind;
        this.waitMs = waitMs;
    }

    @Override
    public Lock obtainLock(String identifier) {
        OwnedLock lock = locks.compute(identifier, (id, held) -> {
            OwnedLock l = held == null ? new OwnedLock() : held;
            l.users++;
            return l;
        });
        try {
            if (senderHoldsRows()) {
                if (!lock.tryLock())
                    throw new LockAcquisitionFailedException(
                            kind + " " + identifier + " is busy with another command; skipped, as this command's"
                                    + " transaction holds row locks");
            } else {
                waitFor(identifier, lock);
            }
        } catch (RuntimeException e) {
            dispose(identifier, lock);
            throw e;
        }
        return new Lock() {
            @Override
            public void release() {
                lock.unlock();
                dispose(identifier, lock);
            }

            @Override
            public boolean isHeld() {
                return lock.isHeldByCurrentThread();
            }
        };
    }

    /** Identifiers with a lock held or wanted now; none once every command has ended. */
    int locksInUse() {
        return locks.size();
    }

    /**
     * Waits in line (the lock is fair: 24 commands on one job each wait about their share, none starves). A cycle is
     * looked for once, after this thread says what it waits for: of two threads closing a cycle, the later to say so
     * sees it.
     */
    private void waitFor(String identifier, OwnedLock lock) {
        if (!lock.hasQueuedThreads() && lock.tryLock()) return;
        Thread me = Thread.currentThread();
        WAITING.put(me, lock);
        try {
            if (inCycle(lock, me))
                throw new DeadlockException("waiting for " + kind + " " + identifier + " closes a cycle of locks");
            if (!lock.tryLock(waitMs, TimeUnit.MILLISECONDS))
                throw new LockAcquisitionFailedException(
                        kind + " " + identifier + " stayed busy for " + waitMs + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockAcquisitionFailedException("interrupted waiting for " + kind + " " + identifier, e);
        } finally {
            WAITING.remove(me);
        }
    }

    /** Whether following owner → what it waits for → its owner … from {@code wanted} comes back to {@code me}. */
    private static boolean inCycle(OwnedLock wanted, Thread me) {
        Set<Thread> seen = new HashSet<>();
        for (Thread owner = wanted.owner(); owner != null && seen.add(owner); ) {
            if (owner == me) return true;
            OwnedLock next = WAITING.get(owner);
            owner = next == null ? null : next.owner();
        }
        return false;
    }

    private void dispose(String identifier, OwnedLock lock) {
        locks.computeIfPresent(identifier, (id, held) -> held == lock && --held.users == 0 ? null : held);
    }

    /** Whether the command being handled, or a unit of work it runs in, says its transaction holds row locks. */
    private static boolean senderHoldsRows() {
        if (!CurrentUnitOfWork.isStarted()) return false;
        for (UnitOfWork<?> unit = CurrentUnitOfWork.get();
                unit != null;
                unit = unit.parent().orElse(null)) {
            Message<?> message = unit.getMessage();
            if (message != null && Boolean.TRUE.equals(message.getMetaData().get(Metadata.HOLDS_ROW_LOCKS)))
                return true;
        }
        return false;
    }

    /** A lock that names its owner; {@code users} counts the threads holding or wanting it, changed under the map. */
    private static final class OwnedLock extends ReentrantLock {
        int users;

        OwnedLock() {
            super(true);
        }

        Thread owner() {
            return getOwner();
        }
    }
}
