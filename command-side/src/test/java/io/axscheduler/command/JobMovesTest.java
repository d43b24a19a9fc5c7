package io.axscheduler.command;

import static io.axscheduler.api.job.JobStatus.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.*;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.testing.AJob;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command of the {@link Job} aggregate in every status, against the job's life as written out here — the moves
 * of the state diagram and the attempt rules — independently of {@link JobTransitions} and {@link JobStatus#after}:
 * a legal command must apply exactly one event that leaves the job in the move's status, an illegal one must be
 * refused with {@link IllegalTransitionException} and apply nothing.
 */
class JobMovesTest {

    private static final String JOB_ID = "job-1";
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00.000Z");
    private static final RetryPolicy POLICY = new RetryPolicy(2, Backoff.delays(List.of(100L)));

    /** The diagram's moves, from → to. */
    private static final Map<JobStatus, Set<JobStatus>> MOVES = Map.of(
            WAITING, EnumSet.of(CLAIMED, CANCELED),
            CLAIMED, EnumSet.of(RUNNING, WAITING, CANCELED),
            RUNNING, EnumSet.of(SUCCEEDED, FAILED, TIMED_OUT, CANCELED),
            RETRY_WAITING, EnumSet.of(CLAIMED, CANCELED),
            FAILED, EnumSet.of(RETRY_WAITING),
            TIMED_OUT, EnumSet.of(RETRY_WAITING),
            CANCELED, EnumSet.of(RETRY_WAITING),
            SUCCEEDED, EnumSet.noneOf(JobStatus.class));

    /** A command, given the job's count of started attempts, and the status its move leads to. */
    enum Move {
        CLAIM(CLAIMED, started -> new ClaimJob(JOB_ID, "node-a", NOW.plusSeconds(30))),
        START(RUNNING, started -> new StartJob(JOB_ID, started + 1, "node-a", null)),
        CLAIM_TIMES_OUT(WAITING, started -> new TimeOutJob(JOB_ID, started + 1, TimeoutPhase.CLAIM)),
        HAND_BACK(WAITING, started -> new HandBackJob(JOB_ID, started + 1, HandBackReason.NO_WORKER)),
        SUCCEED(SUCCEEDED, started -> new SucceedJob(JOB_ID, started, "ok", 1)),
        FAIL(FAILED, started -> new FailJob(JOB_ID, started, "boom", 1)),
        RUN_TIMES_OUT(TIMED_OUT, started -> new TimeOutJob(JOB_ID, started, TimeoutPhase.RUN)),
        POLICY_RETRY(RETRY_WAITING, started -> new ScheduleRetry(JOB_ID, started, NOW.plusSeconds(1))),
        OPERATOR_RETRY(RETRY_WAITING, started -> new RetryJob(JOB_ID)),
        CANCEL(CANCELED, started -> new CancelJob(JOB_ID, "stop"));

        final JobStatus to;
        final IntFunction<Object> command;

        Move(JobStatus to, IntFunction<Object> command) {
            this.to = to;
            this.command = command;
        }

        /**
         * The diagram's move, and the retry policy never retries what an operator canceled; a failed or timed-out
         * first attempt has a retry to come (the policy allows two), so it may be canceled.
         */
        boolean legalFrom(JobStatus from) {
            if (this == CANCEL && (from == FAILED || from == TIMED_OUT)) return true;
            return MOVES.get(from).contains(to) && !(this == POLICY_RETRY && from == CANCELED);
        }
    }

    private AggregateTestFixture<Job> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Job.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(new JobTest.Kept());
    }

    static Stream<Arguments> everyMoveInEveryStatus() {
        return Arrays.stream(JobStatus.values())
                .flatMap(from -> Arrays.stream(Move.values()).map(move -> Arguments.of(from, move)));
    }

    @ParameterizedTest(name = "{1} in {0}")
    @MethodSource("everyMoveInEveryStatus")
    void each_command_is_accepted_exactly_when_the_life_of_a_job_allows_it(JobStatus from, Move move) {
        List<Object> history = AJob.aJob().withId(JOB_ID).historyUpTo(from);
        int started =
                (int) history.stream().filter(JobStarted.class::isInstance).count();
        var result = fixture.given(history).when(move.command.apply(started));
        if (move.legalFrom(from)) {
            result.expectSuccessfulHandlerExecution();
            List<Object> applied = new ArrayList<>();
            result.expectEventsMatching(new BaseMatcher<List<? super EventMessage<?>>>() {
                @Override
                public boolean matches(Object events) {
                    for (Object event : (List<?>) events) applied.add(((EventMessage<?>) event).getPayload());
                    return true;
                }

                @Override
                public void describeTo(Description description) {
                    description.appendText("the applied events");
                }
            });
            assertThat(applied).hasSize(1);
            assertThat(JobStatus.after(applied.get(0))).isEqualTo(move.to);
        } else {
            result.expectException(IllegalTransitionException.class).expectNoEvents();
        }
    }
}
