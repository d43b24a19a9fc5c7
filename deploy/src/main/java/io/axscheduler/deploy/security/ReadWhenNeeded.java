package io.axscheduler.deploy.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Something read from the OIDC provider when first asked for and kept from then on, so a node starts while the
 * provider is down. After a failed read the next waits {@code retry}, so an outage is not a request to the provider
 * per sign-in; one read at a time, and whoever asks meanwhile gets nothing at once rather than queueing behind a slow
 * provider.
 */
final class ReadWhenNeeded<T> {

    private static final Logger log = LoggerFactory.getLogger(ReadWhenNeeded.class);

    private final String what;
    private final Supplier<T> read;
    private final Clock clock;
    private final Duration retry;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile T value;
    private volatile Instant nextTry = Instant.MIN;

    /** {@code what} names it in the log, as "the OIDC provider's … at <issuer>". */
    ReadWhenNeeded(String what, Supplier<T> read, Clock clock, Duration retry) {
        this.what = what;
        this.read = read;
        this.clock = clock;
        this.retry = retry;
    }

    /** The value, read now if it has not been; empty while it cannot be read. */
    Optional<T> get() {
        T known = value;
        if (known != null) return Optional.of(known);
        Instant now = clock.instant();
        if (now.isBefore(nextTry) || !reading.compareAndSet(false, true)) return Optional.empty();
        try {
            value = read.get();
            log.info("read {}", what);
        } catch (RuntimeException e) {
            nextTry = now.plus(retry);
            log.warn("cannot read {} ({}); tried again after {}", what, e.toString(), retry);
        } finally {
            reading.set(false);
        }
        return Optional.ofNullable(value);
    }

    /** The value if it has been read, without reading. */
    Optional<T> known() {
        return Optional.ofNullable(value);
    }
}
