package io.axscheduler.scheduler.fire;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * How many jobs the schedules of a job type that is behind may make in a pass. A type here is a job type in one
 * namespace ({@link io.axscheduler.api.schedule.HoldBack#key}): another namespace's schedules of it fire freely. A
 * type falls behind when its oldest waiting job has waited past {@code hold-back-after-ms}
 * ({@link FireDueSchedules#typesBehind()}), and stays paced until a pass finds none of its schedules due while its oldest job no longer waits past the bound. While paced, its
 * schedules make only what tops its waiting jobs up to half of that bound's worth (two passes' worth if more) at the
 * rate the nodes have been taking them: the count at the last sample, plus the jobs this node made since, less the count now, is what was
 * taken meanwhile (averaged over samples at least {@value #MIN_SAMPLE_MS} ms apart). What is taken from a queue that
 * ran dry says only that the nodes could take more: the rate then counts double, and a dry queue may always get one
 * more job, so the feed grows until jobs wait between passes. So a type the nodes cannot keep up with is fed at their
 * pace, its jobs wait about half the bound, and the nodes neither idle while a backlog drains nor get a burst when it
 * has — instead of holding the type until its queue is empty and then firing everything due at once. The first paced
 * pass knows no rate yet. Another node's fires of the type count as less taken, so nodes pacing one type slow each
 * other down rather than each filling the queue.
 *
 * <p>Node-local and kept on the schedule scan's thread; a restart starts without rates.
 */
final class Pacing {

    /** Passes closer together than this (a backlog's) add to the next sample instead of making one. */
    static final long MIN_SAMPLE_MS = 100;

    private final long windowMs;
    private final Map<String, Paced> paced = new HashMap<>();
    /** The types behind at the last {@link #budgets}: they cannot catch up in that pass. */
    private Set<String> late = Set.of();

    private static final class Paced {
        long count;
        long atMs;
        long made;
        double perMs = Double.NaN;
    }

    /**
     * {@code afterMs}: {@code hold-back-after-ms}; the waiting jobs are kept at half its worth, or two of the longest
     * gaps between passes ({@code passMs}) if longer, so the queue does not run dry between two passes.
     */
    Pacing(long afterMs, long passMs) {
        this.windowMs = Math.max(afterMs / 2, 2 * passMs);
    }

    /**
     * The jobs each paced type may make this pass: the types {@code late} now, and those paced before that have not
     * caught up; {@code waiting} counts a type's jobs waiting to be claimed. A type absent from the answer fires freely.
     */
    synchronized Map<String, Long> budgets(Set<String> late, ToLongFunction<String> waiting, long nowMs) {
        this.late = Set.copyOf(late);
        Set<String> types = new TreeSet<>(late);
        types.addAll(paced.keySet());
        Map<String, Long> budgets = new TreeMap<>();
        for (String type : types) {
            long count = waiting.applyAsLong(type);
            Paced p = paced.get(type);
            if (p == null) {
                p = new Paced();
                paced.put(type, p);
                p.count = count;
                p.atMs = nowMs;
            } else if (nowMs - p.atMs >= MIN_SAMPLE_MS) {
                double taken = Math.max(0, p.count + p.made - count) / (double) (nowMs - p.atMs);
                if (count == 0) taken *= 2;
                p.perMs = Double.isNaN(p.perMs) ? taken : (p.perMs + taken) / 2;
                p.count = count;
                p.atMs = nowMs;
                p.made = 0;
            }
            long budget = Double.isNaN(p.perMs) ? 0 : Math.max(0, (long) (p.perMs * windowMs) - count);
            budgets.put(type, count == 0 ? Math.max(1, budget) : budget);
        }
        return budgets;
    }

    /** Jobs this node's schedules of {@code type} made in this pass. */
    synchronized void made(String type, int jobs) {
        Paced p = paced.get(type);
        if (p != null) p.made += jobs;
    }

    /**
     * None of {@code type}'s schedules is due: unless it was behind at the last {@link #budgets} (its oldest job still
     * waits past the bound), it fires freely again. True when it was paced and no longer is.
     */
    synchronized boolean caughtUp(String type) {
        return !late.contains(type) && paced.remove(type) != null;
    }

    /** The types paced now. */
    synchronized Set<String> types() {
        return Set.copyOf(paced.keySet());
    }
}
