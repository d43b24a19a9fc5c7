package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

class CommittedOnlyCacheTest {

    @AfterEach
    void clearSynchronization() {
        if (TransactionSynchronizationManager.isSynchronizationActive())
            TransactionSynchronizationManager.clearSynchronization();
    }

    @Test
    void the_cache_holds_no_more_than_its_capacity() {
        CommittedOnlyCache cache = CommittedOnlyCache.bounded("test", 100);
        for (int i = 0; i < 10_000; i++) cache.put("job-" + i, i);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            long held = java.util.stream.IntStream.range(0, 10_000)
                    .filter(i -> cache.containsKey("job-" + i))
                    .count();
            assertThat(held).isLessThanOrEqualTo(100);
        });
        assertThat(cache.<String, Integer>get("job-9999")).isEqualTo(9999);
    }

    @Test
    void an_entry_put_inside_a_transaction_that_rolls_back_is_forgotten() {
        CommittedOnlyCache cache = putInsideTransactionThatEnds("job-1", TransactionSynchronization.STATUS_ROLLED_BACK);

        assertThat(cache.containsKey("job-1")).isFalse();
    }

    @Test
    void an_entry_put_inside_a_transaction_that_commits_stays() {
        CommittedOnlyCache cache = putInsideTransactionThatEnds("job-1", TransactionSynchronization.STATUS_COMMITTED);

        assertThat(cache.containsKey("job-1")).isTrue();
    }

    private static CommittedOnlyCache putInsideTransactionThatEnds(String key, int status) {
        CommittedOnlyCache cache = CommittedOnlyCache.bounded("test", 10);
        TransactionSynchronizationManager.initSynchronization();
        cache.put(key, "state of " + key);
        TransactionSynchronizationUtils.invokeAfterCompletion(
                TransactionSynchronizationManager.getSynchronizations(), status);
        return cache;
    }

    @Test
    void no_capacity_caches_nothing() {
        CommittedOnlyCache cache = CommittedOnlyCache.bounded("test", 0);
        cache.put("a", 1);
        assertThat(cache.containsKey("a")).isFalse();
    }
}
