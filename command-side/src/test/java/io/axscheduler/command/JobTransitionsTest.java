package io.axscheduler.command;

import static io.axscheduler.api.job.JobStatus.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.IllegalTransitionException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every from→to pair against a table written out here, independently of the one in {@link JobTransitions}. */
class JobTransitionsTest {

    private static final Map<JobStatus, Set<JobStatus>> LEGAL = Map.of(
            WAITING, EnumSet.of(CLAIMED, CANCELED),
            CLAIMED, EnumSet.of(RUNNING, WAITING, CANCELED),
            RUNNING, EnumSet.of(SUCCEEDED, FAILED, TIMED_OUT, CANCELED),
            RETRY_WAITING, EnumSet.of(CLAIMED, CANCELED),
            FAILED, EnumSet.of(RETRY_WAITING),
            TIMED_OUT, EnumSet.of(RETRY_WAITING),
            CANCELED, EnumSet.of(RETRY_WAITING),
            SUCCEEDED, EnumSet.noneOf(JobStatus.class));

    static Stream<Arguments> everyPair() {
        return Arrays.stream(JobStatus.values())
                .flatMap(from -> Arrays.stream(JobStatus.values())
                        .map(to -> Arguments.of(from, to, LEGAL.get(from).contains(to))));
    }

    @ParameterizedTest(name = "{0} → {1} legal: {2}")
    @MethodSource("everyPair")
    void each_move_is_allowed_exactly_when_the_table_says_so(JobStatus from, JobStatus to, boolean legal) {
        assertThat(JobTransitions.isAllowed(from, to)).isEqualTo(legal);
    }

    @ParameterizedTest(name = "{0} → {1} legal: {2}")
    @MethodSource("everyPair")
    void check_throws_for_every_illegal_move_and_passes_every_legal_one(JobStatus from, JobStatus to, boolean legal) {
        if (legal) {
            assertThatCode(() -> JobTransitions.check("job-1", from, to)).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> JobTransitions.check("job-1", from, to))
                    .isInstanceOf(IllegalTransitionException.class)
                    .hasMessageContaining("job-1")
                    .hasMessageContaining(from.name())
                    .hasMessageContaining(to.name())
                    // a move to where it is reads as such: "already CANCELED", not "CANCELED cannot move to CANCELED"
                    .hasMessageContaining(from == to ? "is already " + from : "and cannot move to " + to);
        }
    }

    @Test
    void the_table_here_covers_every_status_and_holds_the_fourteen_legal_moves() {
        assertThat(LEGAL.keySet()).containsExactlyInAnyOrder(JobStatus.values());
        assertThat(LEGAL.values().stream().mapToInt(Set::size).sum()).isEqualTo(14);
        assertThat(everyPair()).hasSize(64);
    }

    @Test
    void no_status_moves_to_itself() {
        for (JobStatus s : JobStatus.values()) {
            assertThat(JobTransitions.isAllowed(s, s)).as(s.name()).isFalse();
        }
    }
}
