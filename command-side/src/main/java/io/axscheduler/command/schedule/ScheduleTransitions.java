package io.axscheduler.command.schedule;

import static io.axscheduler.api.schedule.ScheduleState.*;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.schedule.ScheduleState;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What a schedule may do in each of its states, written once; the {@link Schedule} aggregate asks here before each
 * command. A paused schedule keeps its configuration and may be fired by hand; a deleted one does nothing more (a
 * second delete is a no-op, as a second pause or resume is).
 *
 * <pre>
 * ACTIVE ─pause→ PAUSED ─resume→ ACTIVE
 *   └─────delete────┴──→ DELETED
 * </pre>
 */
final class ScheduleTransitions {

    /** What a command asks the schedule to do. */
    enum Action {
        UPDATE,
        PAUSE,
        RESUME,
        DELETE,
        /** fire at its next fire time, skip or queue that fire, release a queued fire, arm a fixed delay */
        FIRE_ON_TIME,
        FIRE_BY_HAND
    }

    private static final Map<ScheduleState, Set<Action>> ALLOWED = new EnumMap<>(ScheduleState.class);

    static {
        ALLOWED.put(ACTIVE, EnumSet.allOf(Action.class));
        ALLOWED.put(PAUSED, EnumSet.of(Action.UPDATE, Action.PAUSE, Action.RESUME, Action.DELETE, Action.FIRE_BY_HAND));
        ALLOWED.put(DELETED, EnumSet.of(Action.DELETE));
    }

    private ScheduleTransitions() {}

    static boolean isAllowed(ScheduleState state, Action action) {
        return ALLOWED.get(state).contains(action);
    }

    static void check(String scheduleId, ScheduleState state, Action action, String what) {
        if (!isAllowed(state, action)) {
            throw new IllegalTransitionException("schedule " + scheduleId + " is " + state + " and cannot " + what);
        }
    }
}
