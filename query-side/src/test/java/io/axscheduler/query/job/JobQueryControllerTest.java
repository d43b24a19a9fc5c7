package io.axscheduler.query.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobQueryControllerTest {

    @Test
    void as_of_accepts_an_iso_instant_with_milliseconds() {
        assertThat(JobQueryController.parseAsOf("2026-11-30T10:00:00.250Z"))
                .isEqualTo(Instant.parse("2026-11-30T10:00:00.250Z"));
    }

    @Test
    void as_of_with_an_offset_means_the_same_instant_in_utc() {
        assertThat(JobQueryController.parseAsOf("2026-11-30T18:00:00+08:00"))
                .isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", "2026-11-30", "1764496800000"})
    void an_unparsable_as_of_is_refused_naming_as_of(String asOf) {
        InvalidRequestException refusal =
                catchThrowableOfType(InvalidRequestException.class, () -> JobQueryController.parseAsOf(asOf));

        assertThat(refusal.errors()).extracting(FieldError::field).containsExactly("asOf");
    }
}
