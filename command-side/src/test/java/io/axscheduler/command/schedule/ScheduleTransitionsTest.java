package io.axscheduler.command.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.schedule.ScheduleState;
import io.axscheduler.command.schedule.ScheduleTransitions.Action;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every state × action against the schedule's life as written out here, not against the production table. */
class ScheduleTransitionsTest {

    /** What each state refuses: a deleted schedule all but a (no-op) delete, a paused one any fire on its own time. */
    private static boolean refuses(ScheduleState state, Action action) {
        return switch (state) {
            case ACTIVE -> false;
            case PAUSED -> action == Action.FIRE_ON_TIME;
            case DELETED -> action != Action.DELETE;
        };
    }

    static Stream<Arguments> everyPair() {
        return Arrays.stream(ScheduleState.values())
                .flatMap(state -> Arrays.stream(Action.values()).map(action -> Arguments.of(state, action)));
    }

    @ParameterizedTest(name = "{1} when {0}")
    @MethodSource("everyPair")
    void each_action_is_allowed_exactly_when_the_schedules_life_allows_it(ScheduleState state, Action action) {
        assertThat(ScheduleTransitions.isAllowed(state, action)).isEqualTo(!refuses(state, action));
        if (refuses(state, action)) {
            assertThatThrownBy(() -> ScheduleTransitions.check("s-1", state, action, "do it"))
                    .isInstanceOf(IllegalTransitionException.class)
                    .hasMessageContaining(state.name());
        }
    }
}
