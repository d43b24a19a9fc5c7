package io.axscheduler.api.schedule;

import java.time.Instant;

/** One due fire time of a plan: fire it, or skip it with a reason ({@code skipReason} set). */
public record PlannedFire(Instant fireTime, String skipReason) {

    public static PlannedFire fire(Instant fireTime) {
        return new PlannedFire(fireTime, null);
    }

    public static PlannedFire skip(Instant fireTime, String reason) {
        return new PlannedFire(fireTime, reason);
    }

    public boolean fires() {
        return skipReason == null;
    }
}
