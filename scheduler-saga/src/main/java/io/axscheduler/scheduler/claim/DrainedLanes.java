package io.axscheduler.scheduler.claim;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Lanes a pass need not query: one that came back short holds no more due work, so it is left alone for a quiet
 * spell (the regular tick's cadence, which finds work other nodes made) — but never past a moment at which this node
 * knows work of its type falls due, whether it learnt so before the pass that marked the lane, during it, or after.
 * Times are this JVM's clock in epoch ms.
 */
final class DrainedLanes {

    /** At most this many expected moments per job type, the earliest; work behind a dropped one waits for the tick. */
    static final int MAX_EXPECTED = 10_000;
    /** An expected moment this close before a pass began is not counted as seen by it (clock skew, rounding). */
    static final long MARGIN_MS = 5;

    private static final String ANY_TYPE = "";

    private final Map<Lane, Long> quietUntil = new HashMap<>();
    /** Job type ({@link #ANY_TYPE} for every type) → moments its work falls due, not yet seen by a pass. */
    private final Map<String, TreeSet<Long>> expected = new HashMap<>();

    /**
     * The rows one claim query looks at: a job type, and the SQL condition (with its parameters) that picks the
     * in-process jobs or one executor app's.
     */
    record Lane(String jobType, String condition, Map<String, Object> params) {}

    synchronized boolean isQuiet(Lane lane, long now) {
        return quietUntil.getOrDefault(lane, 0L) > now;
    }

    /** Work of {@code jobType} (every type when null) falls due at {@code at}; this node learnt so at {@code now}. */
    synchronized void expect(String jobType, long at, long now) {
        // work that is due already, made while a pass was running, may have committed after its query
        long due = Math.max(at, now);
        TreeSet<Long> times = expected.computeIfAbsent(jobType == null ? ANY_TYPE : jobType, t -> new TreeSet<>());
        times.add(due);
        if (times.size() > MAX_EXPECTED) times.pollLast();
        quietUntil.replaceAll(
                (lane, until) -> jobType == null || jobType.equals(lane.jobType()) ? Math.min(until, due) : until);
    }

    /**
     * After a pass that began at {@code passStart} committed, with each lane it queried and whether that lane came back
     * with less than it asked for: short lanes go quiet until {@code quiet} or the first moment work of their type is
     * expected, whichever comes first; full ones stay in. What the pass saw is forgotten.
     */
    synchronized void afterPass(Map<Lane, Boolean> cameBackShort, long passStart, long quiet) {
        long seenUpTo = passStart - MARGIN_MS;
        cameBackShort.forEach((lane, isShort) -> {
            if (isShort) {
                quietUntil.put(
                        lane,
                        Math.min(
                                quiet,
                                Math.min(nextExpected(lane.jobType(), seenUpTo), nextExpected(ANY_TYPE, seenUpTo))));
            } else {
                quietUntil.remove(lane);
            }
        });
        // a lane this pass left out is never quiet past these moments (expect lowered it), so they are done with
        expected.values().forEach(times -> times.headSet(seenUpTo, true).clear());
    }

    private long nextExpected(String type, long after) {
        TreeSet<Long> times = expected.get(type);
        Long next = times == null ? null : times.higher(after);
        return next == null ? Long.MAX_VALUE : next;
    }
}
