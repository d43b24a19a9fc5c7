package io.axscheduler.scheduler.remote;

import io.axscheduler.api.worker.CallbackSignature;
import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a callback's {@code X-Ax-Timestamp} and {@code X-Ax-Signature}: signed with the worker's secret, over
 * this very body and timestamp, within {@code maxAgeMs} of the node's clock either way, and not seen before. A
 * signature is remembered for as long as its timestamp is fresh, so a replay inside the window is refused and one
 * outside it is stale. The memory is per node: a replay sent to another node passes here, and then changes nothing
 * because the attempt's row already ended.
 */
public final class CallbackVerifier {

    public enum Verdict {
        VALID,
        UNSIGNED,
        STALE,
        BAD_SIGNATURE,
        REPLAYED
    }

    /** Bounds the memory of seen signatures; past it, expired ones are dropped at once. */
    static final int MAX_REMEMBERED = 100_000;

    private final long maxAgeMs;
    private final Clock clock;
    private final Map<String, Long> seen = new ConcurrentHashMap<>();

    public CallbackVerifier(long maxAgeMs, Clock clock) {
        this.maxAgeMs = maxAgeMs;
        this.clock = clock;
    }

    public Verdict verify(String secret, String timestampHeader, String signature, String body) {
        if (timestampHeader == null || timestampHeader.isBlank() || signature == null || signature.isBlank()) {
            return Verdict.UNSIGNED;
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            return Verdict.BAD_SIGNATURE;
        }
        long now = clock.millis();
        if (Math.abs(now - timestamp) > maxAgeMs) return Verdict.STALE;
        if (secret == null || !CallbackSignature.matches(secret, timestamp, body, signature.trim())) {
            return Verdict.BAD_SIGNATURE;
        }
        if (seen.size() >= MAX_REMEMBERED) forgetExpired(now);
        if (seen.putIfAbsent(signature.trim().toLowerCase(), timestamp) != null) return Verdict.REPLAYED;
        return Verdict.VALID;
    }

    private void forgetExpired(long now) {
        for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
            if (Math.abs(now - it.next()) > maxAgeMs) it.remove();
        }
    }
}
