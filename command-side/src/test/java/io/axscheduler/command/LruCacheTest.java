package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

class LruCacheTest {

    @AfterEach
    void clearSynchronization() {
        if (TransactionSynchronizationManager.isSynchronizationActive())
            TransactionSynchronizationManager.clearSynchronization();
    }

    @Test
    void the_least_recently_used_entry_goes_first() {
        LruCache cache = new LruCache("test", 2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.get("a");
        cache.put("c", 3);

        assertThat(cache.containsKey("a")).isTrue();
        assertThat(cache.containsKey("b")).isFalse();
        assertThat(cache.containsKey("c")).isTrue();
    }

    @Test
    void an_entry_put_inside_a_transaction_that_rolls_back_is_forgotten() {
        LruCache cache = putInsideTransactionThatEnds("job-1", TransactionSynchronization.STATUS_ROLLED_BACK);

        assertThat(cache.containsKey("job-1")).isFalse();
    }

    @Test
    void an_entry_put_inside_a_transaction_that_commits_stays() {
        LruCache cache = putInsideTransactionThatEnds("job-1", TransactionSynchronization.STATUS_COMMITTED);

        assertThat(cache.containsKey("job-1")).isTrue();
    }

    private static LruCache putInsideTransactionThatEnds(String key, int status) {
        LruCache cache = new LruCache("test", 10);
        TransactionSynchronizationManager.initSynchronization();
        cache.put(key, "state of " + key);
        TransactionSynchronizationUtils.invokeAfterCompletion(
                TransactionSynchronizationManager.getSynchronizations(), status);
        return cache;
    }

    @Test
    void no_capacity_caches_nothing() {
        LruCache cache = new LruCache("test", 0);
        cache.put("a", 1);
        assertThat(cache.containsKey("a")).isFalse();
    }
}
