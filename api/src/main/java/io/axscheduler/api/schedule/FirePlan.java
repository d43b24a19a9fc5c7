package io.axscheduler.api.schedule;

import java.time.Instant;
import java.util.List;

/**
 * What a scan does with a schedule's due fire times, oldest first, and the fire time that follows them (null: none,
 * or for a fixed delay, until the run ends). Sent as a chain of commands, each naming the next one's fire time.
 */
public record FirePlan(List<PlannedFire> fires, Instant nextFireTime) {

    public FirePlan {
        fires = List.copyOf(fires);
    }

    /** The fire time that follows the fire at {@code index}: the next one in the plan, or the plan's next. */
    public Instant nextAfter(int index) {
        return index + 1 < fires.size() ? fires.get(index + 1).fireTime() : nextFireTime;
    }
}
