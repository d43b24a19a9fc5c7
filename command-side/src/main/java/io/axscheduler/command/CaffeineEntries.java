package io.axscheduler.command;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;

/**
 * Axon's cache interface straight on a bounded Caffeine cache. Axon's {@code JCacheAdapter} over Caffeine's JCache
 * provider did the same through the JCache layer (its entry-event dispatcher waited on at every put and remove), and
 * Caffeine's upkeep of the bound ran as tasks on the common fork-join pool, each a hand-off to another thread; here it
 * runs on the thread that reads or writes. No entry listeners: nothing registers any on an aggregate cache.
 * <p>
 * An entry may also have a lifetime from its last write: see {@link AggregateCacheProperties#jobCacheLifetimeMs()}.
 */
final class CaffeineEntries implements Cache {

    private final com.github.benmanes.caffeine.cache.Cache<Object, Object> entries;

    CaffeineEntries(int capacity) {
        this(capacity, null);
    }

    /** At most {@code capacity} entries, each gone {@code lifetime} after it was last written (null: kept). */
    CaffeineEntries(int capacity, Duration lifetime) {
        Caffeine<Object, Object> builder =
                Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run);
        if (lifetime != null) builder.expireAfterWrite(lifetime);
        this.entries = builder.build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> V get(K key) {
        return (V) entries.getIfPresent(key);
    }

    @Override
    public void put(Object key, Object value) {
        entries.put(key, value);
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        return entries.asMap().putIfAbsent(key, value) == null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T computeIfAbsent(Object key, Supplier<T> valueSupplier) {
        return (T) entries.get(key, k -> {
            T value = valueSupplier.get();
            if (value == null)
                throw new IllegalArgumentException(
                        "Value Supplier of Cache produced a null value for key [" + key + "]!");
            return value;
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> void computeIfPresent(Object key, UnaryOperator<V> update) {
        entries.asMap().computeIfPresent(key, (k, v) -> update.apply((V) v));
    }

    @Override
    public boolean remove(Object key) {
        return entries.asMap().remove(key) != null;
    }

    @Override
    public void removeAll() {
        entries.invalidateAll();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.asMap().containsKey(key);
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener cacheEntryListener) {
        throw new UnsupportedOperationException("an aggregate cache takes no entry listeners");
    }
}
