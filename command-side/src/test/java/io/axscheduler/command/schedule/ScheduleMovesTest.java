package io.axscheduler.command.schedule;

import static io.axscheduler.testing.ASchedule.aSchedule;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.Unchanged;
import io.axscheduler.api.schedule.DeleteSchedule;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.FireSchedule;
import io.axscheduler.api.schedule.PauseSchedule;
import io.axscheduler.api.schedule.ResumeSchedule;
import io.axscheduler.api.schedule.ScheduleDeleted;
import io.axscheduler.api.schedule.ScheduleResumed;
import io.axscheduler.api.schedule.ScheduleState;
import io.axscheduler.api.schedule.UpdateSchedule;
import io.axscheduler.testing.ASchedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operator command of the {@link Schedule} aggregate in every state, against the schedule's life written out
 * here: a deleted schedule refuses everything but a (no-op) delete; a paused one may be updated, deleted, resumed,
 * paused again (a no-op) and fired by hand; an active one does all.
 */
class ScheduleMovesTest {

    private static final ASchedule SCHEDULE = aSchedule();

    enum Command {
        UPDATE(s -> new UpdateSchedule(
                s.id(),
                "renamed",
                s.created().trigger(),
                s.created().job(),
                s.created().misfirePolicy(),
                s.created().overlapPolicy(),
                s.created().anchor())),
        PAUSE(s -> new PauseSchedule(s.id())),
        RESUME(s -> new ResumeSchedule(s.id())),
        DELETE(s -> new DeleteSchedule(s.id())),
        FIRE_BY_HAND(s -> new FireSchedule(s.id(), s.firstFireTime().minusSeconds(30), FireKind.MANUAL, "job-m", null));

        final Function<ASchedule, Object> command;

        Command(Function<ASchedule, Object> command) {
            this.command = command;
        }
    }

    private static boolean refused(ScheduleState state, Command command) {
        return state == ScheduleState.DELETED && command != Command.DELETE;
    }

    /** Asks for what the schedule already is: pause a paused one, resume an active one. */
    private static boolean unchanged(ScheduleState state, Command command) {
        return (state == ScheduleState.PAUSED && command == Command.PAUSE)
                || (state == ScheduleState.ACTIVE && command == Command.RESUME);
    }

    static Stream<Arguments> everyCommandInEveryState() {
        return Arrays.stream(ScheduleState.values())
                .flatMap(state -> Arrays.stream(Command.values()).map(command -> Arguments.of(state, command)));
    }

    @ParameterizedTest(name = "{1} when {0}")
    @MethodSource("everyCommandInEveryState")
    void each_command_is_accepted_exactly_when_the_schedules_life_allows_it(ScheduleState state, Command command) {
        AggregateTestFixture<Schedule> fixture = new AggregateTestFixture<>(Schedule.class);
        List<Object> history = new ArrayList<>(List.of(SCHEDULE.created()));
        if (state == ScheduleState.PAUSED) history.add(SCHEDULE.paused());
        if (state == ScheduleState.DELETED) history.add(new ScheduleDeleted(SCHEDULE.id()));
        var result = fixture.given(history).when(command.command.apply(SCHEDULE));
        if (refused(state, command)) {
            result.expectException(IllegalTransitionException.class).expectNoEvents();
        } else if (unchanged(state, command)) {
            // answered as done by the command bus when decided on the store's state (CachedStateRefusals)
            result.expectException(Unchanged.class).expectNoEvents();
        } else {
            result.expectSuccessfulHandlerExecution();
        }
        if (state == ScheduleState.PAUSED && command == Command.RESUME)
            result.expectEvents(new ScheduleResumed(SCHEDULE.id(), SCHEDULE.firstFireTime()));
        if (state != ScheduleState.ACTIVE && command == Command.PAUSE) result.expectNoEvents();
        if (state == ScheduleState.DELETED && command == Command.DELETE) result.expectNoEvents();
    }
}
