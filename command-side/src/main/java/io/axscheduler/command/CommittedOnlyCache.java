package io.axscheduler.command;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.common.caching.NoCache;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The aggregates this node touched last (a bounded Caffeine cache, {@link CaffeineEntries}): a job's claim,
 * start and outcome on this node, or a schedule's fires, do not replay its events each time. A cached aggregate is only
 * a guess of the newest state: a command decided on a stale one appends an event at a sequence number another node
 * already used, the event store's unique key refuses it, and Axon drops the entry when the unit of work rolls back.
 * <p>
 * What this class adds to the library's cache: Axon puts an aggregate here when its unit of work commits, which inside a
 * wider database transaction (a batch) is before that transaction commits. Should the transaction then roll back, the
 * entry would hold events the store never kept — and the next command would append after them, leaving a hole no
 * unique key catches. So an entry put inside a transaction goes when the transaction does not commit.
 */
public final class CommittedOnlyCache implements Cache {

    private final Cache entries;

    CommittedOnlyCache(Cache entries) {
        this.entries = entries;
    }

    /** A cache of at most {@code capacity} entries (0: none), named by the setting that sizes it. */
    public static CommittedOnlyCache bounded(String name, int capacity) {
        return bounded(name, capacity, null);
    }

    /** As {@link #bounded(String, int)}, each entry gone {@code lifetime} after it was last written (null: kept). */
    public static CommittedOnlyCache bounded(String name, int capacity, Duration lifetime) {
        if (capacity < 0) throw new IllegalArgumentException(name + " must not be negative");
        if (capacity == 0) return new CommittedOnlyCache(NoCache.INSTANCE);
        return new CommittedOnlyCache(new CaffeineEntries(capacity, lifetime));
    }

    @Override
    public <K, V> V get(K key) {
        return entries.get(key);
    }

    @Override
    public void put(Object key, Object value) {
        forgetUnlessCommitted(key);
        entries.put(key, value);
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        forgetUnlessCommitted(key);
        return entries.putIfAbsent(key, value);
    }

    @Override
    public <T> T computeIfAbsent(Object key, Supplier<T> valueSupplier) {
        forgetUnlessCommitted(key);
        return entries.computeIfAbsent(key, valueSupplier);
    }

    @Override
    public <V> void computeIfPresent(Object key, UnaryOperator<V> update) {
        forgetUnlessCommitted(key);
        entries.computeIfPresent(key, update);
    }

    @Override
    public boolean remove(Object key) {
        return entries.remove(key);
    }

    @Override
    public void removeAll() {
        entries.removeAll();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener listener) {
        return entries.registerCacheEntryListener(listener);
    }

    private void forgetUnlessCommitted(Object key) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) return;
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status != STATUS_COMMITTED) remove(key);
            }
        });
    }
}
