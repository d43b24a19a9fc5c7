package io.axscheduler.api.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Applies the misfire policy to a schedule whose fire time has come. A fire time is missed when it is older at the
 * scan than {@code misfireThresholdMs} or than two of the schedule's periods, whichever is shorter (nodes were down,
 * the schedule was paused): a 1 s schedule stopped for 4 s is a misfire, a fire a scan interval late is on time.
 * <ul>
 *   <li>{@code FIRE_ONCE}: one catch-up fire, at the first missed time, then on schedule from now; the other missed
 *       times are one skip, so every fire time that made no job is on record;</li>
 *   <li>{@code SKIP}: the missed times are skipped (recorded once) and the schedule resumes at the next future time;</li>
 *   <li>{@code FIRE_ALL}: every missed time fires, up to {@code fireAllMax}; beyond that the rest are skipped.</li>
 * </ul>
 * Pure, so every policy is tested with set instants.
 */
public final class PlanFires {

    private PlanFires() {}

    public static FirePlan plan(
            Trigger trigger,
            Instant anchor,
            Instant due,
            Instant now,
            MisfirePolicy policy,
            long misfireThresholdMs,
            int fireAllMax) {
        if (due == null || due.isAfter(now)) {
            return new FirePlan(List.of(), due);
        }
        boolean late = now.toEpochMilli() - due.toEpochMilli() > misfireThresholdMs;
        if (trigger.type() == TriggerType.ONCE || trigger.type() == TriggerType.FIXED_DELAY) {
            return single(trigger, due, now, late, policy);
        }
        // The due times up to now, one more than the bound so that "more than the bound" is visible.
        List<Instant> dueTimes = new ArrayList<>();
        Instant cursor = due;
        dueTimes.add(due);
        while (dueTimes.size() <= fireAllMax) {
            Optional<Instant> next = FireTimes.next(trigger, anchor, cursor);
            if (next.isEmpty() || next.get().isAfter(now)) break;
            dueTimes.add(next.get());
            cursor = next.get();
        }
        boolean beyondBound = dueTimes.size() > fireAllMax;
        // for a short period the threshold shrinks to two periods: "one catch-up fire" must not become several
        long period = dueTimes.size() > 1
                ? dueTimes.get(1).toEpochMilli() - due.toEpochMilli()
                : FireTimes.next(trigger, anchor, due)
                        .map(n -> n.toEpochMilli() - due.toEpochMilli())
                        .orElse(Long.MAX_VALUE / 4);
        boolean missed = late || now.toEpochMilli() - due.toEpochMilli() > 2 * period;
        Instant nextAfterNow = FireTimes.next(trigger, anchor, now).orElse(null);
        List<PlannedFire> fires = new ArrayList<>();
        if (!missed) {
            // only late by less than the threshold: every due time is on time
            dueTimes.stream().limit(fireAllMax).forEach(t -> fires.add(PlannedFire.fire(t)));
            return new FirePlan(fires, beyondBound ? dueTimes.get(fireAllMax) : nextAfter(trigger, anchor, dueTimes));
        }
        String missedCount = (beyondBound ? "more than " + fireAllMax : String.valueOf(dueTimes.size())) + " fire time"
                + (dueTimes.size() == 1 ? "" : "s") + " missed since " + due;
        switch (policy) {
            case FIRE_ONCE -> {
                fires.add(PlannedFire.fire(due));
                // the other missed times are a skip too, recorded from the second one up to the next fire time
                if (dueTimes.size() > 1) {
                    fires.add(
                            PlannedFire.skip(
                                    dueTimes.get(1),
                                    missedCount
                                            + "; misfire policy FIRE_ONCE makes one catch-up fire for the first, the rest are skipped"));
                }
            }
            case SKIP -> fires.add(PlannedFire.skip(due, missedCount + "; misfire policy SKIP"));
            case FIRE_ALL -> {
                dueTimes.stream().limit(fireAllMax).forEach(t -> fires.add(PlannedFire.fire(t)));
                if (beyondBound) {
                    fires.add(PlannedFire.skip(
                            dueTimes.get(fireAllMax),
                            missedCount + "; misfire policy FIRE_ALL makes fires for the first " + fireAllMax
                                    + ", the rest are skipped"));
                }
            }
        }
        return new FirePlan(fires, nextAfterNow);
    }

    /**
     * As {@link #plan}, and then the fire times that come due within {@code lookAheadMs} after {@code now}, as
     * on-time fires: a scan that fires them ahead lets their jobs wait in the queue for their exact due time instead
     * of being made a scan interval after it. The misfire policy still judges lateness against {@code now}.
     */
    public static FirePlan plan(
            Trigger trigger,
            Instant anchor,
            Instant due,
            Instant now,
            long lookAheadMs,
            MisfirePolicy policy,
            long misfireThresholdMs,
            int fireAllMax) {
        FirePlan base = plan(trigger, anchor, due, now, policy, misfireThresholdMs, fireAllMax);
        Instant horizon = now.plusMillis(Math.max(0, lookAheadMs));
        List<PlannedFire> fires = new ArrayList<>(base.fires());
        Instant next = base.nextFireTime();
        // once and fixed delay have no fire after a fire: a fixed delay is armed when its job ends
        boolean repeats = trigger.type() == TriggerType.CRON || trigger.type() == TriggerType.FIXED_RATE;
        while (next != null && !next.isAfter(horizon) && fires.size() < fireAllMax) {
            fires.add(PlannedFire.fire(next));
            next = repeats ? FireTimes.next(trigger, anchor, next).orElse(null) : null;
        }
        return new FirePlan(fires, next);
    }

    private static Instant nextAfter(Trigger trigger, Instant anchor, List<Instant> dueTimes) {
        return FireTimes.next(trigger, anchor, dueTimes.get(dueTimes.size() - 1))
                .orElse(null);
    }

    /** Once and fixed delay have a single due time; a fixed delay skipped starts its delay again from now. */
    private static FirePlan single(Trigger trigger, Instant due, Instant now, boolean missed, MisfirePolicy policy) {
        if (missed && policy == MisfirePolicy.SKIP) {
            Instant next = trigger.type() == TriggerType.FIXED_DELAY ? now.plusMillis(trigger.delayMs()) : null;
            return new FirePlan(
                    List.of(PlannedFire.skip(due, "fire time " + due + " missed; misfire policy SKIP")), next);
        }
        return new FirePlan(List.of(PlannedFire.fire(due)), null);
    }
}
