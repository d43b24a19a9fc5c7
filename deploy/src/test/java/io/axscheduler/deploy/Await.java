package io.axscheduler.deploy;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;

/** Polls until a condition holds (Awaitility), failing with what it last saw. */
final class Await {

    private Await() {}

    static void until(Duration timeout, BooleanSupplier condition, Supplier<String> lastSeen) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("not reached within " + timeout + "; last seen: " + lastSeen.get());
        }
    }
}
