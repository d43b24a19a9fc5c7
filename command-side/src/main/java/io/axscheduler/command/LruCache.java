package io.axscheduler.command;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The aggregates this node touched last, least recently used out first: a job's claim, start and outcome on this node,
 * or a schedule's fires, do not replay its events each time. A cached aggregate is only a guess of the newest state: a
 * command decided on a stale one appends an event at a sequence number another node already used, the event store's
 * unique key refuses it, and Axon drops the entry when the unit of work rolls back — the next load reads the stream
 * again. The event store stays the compare-and-set; the cache never decides anything on its own.
 */
public final class LruCache implements Cache {

    private final int capacity;
    private final Map<Object, Object> entries;
    private final List<EntryListener> listeners = new CopyOnWriteArrayList<>();

    public LruCache(String name, int capacity) {
        if (capacity < 0) throw new IllegalArgumentException(name + " must not be negative");
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <K, V> V get(K key) {
        V value = (V) entries.get(key);
        if (value != null) listeners.forEach(l -> l.onEntryRead(key, value));
        return value;
    }

    /**
     * Axon puts an aggregate here when its unit of work commits, which inside a wider database transaction (a batch)
     * is before that transaction commits. Should the transaction then roll back, the entry would hold events the
     * store never kept — and the next command would append after them, leaving a hole no unique key catches. So the
     * entry goes when the transaction does not commit.
     */
    @Override
    public void put(Object key, Object value) {
        forgetUnlessCommitted(key);
        Object previous;
        synchronized (this) {
            if (capacity == 0) return;
            previous = entries.put(key, value);
            evictEldest();
        }
        listeners.forEach(l -> {
            if (previous == null) l.onEntryCreated(key, value);
            else l.onEntryUpdated(key, value);
        });
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        forgetUnlessCommitted(key);
        synchronized (this) {
            if (capacity == 0 || entries.containsKey(key)) return false;
            entries.put(key, value);
            evictEldest();
        }
        listeners.forEach(l -> l.onEntryCreated(key, value));
        return true;
    }

    @Override
    public boolean remove(Object key) {
        boolean removed;
        synchronized (this) {
            removed = entries.remove(key) != null;
        }
        if (removed) listeners.forEach(l -> l.onEntryRemoved(key));
        return removed;
    }

    @Override
    public synchronized void removeAll() {
        entries.clear();
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    synchronized int size() {
        return entries.size();
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
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

    private void evictEldest() {
        while (entries.size() > capacity) {
            Object eldest = entries.keySet().iterator().next();
            entries.remove(eldest);
            listeners.forEach(l -> l.onEntryExpired(eldest));
        }
    }
}
