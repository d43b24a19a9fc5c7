package io.axscheduler.query.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobListingCursorTest {

    @Test
    void a_cursor_reads_back_as_written() {
        assertThat(JobListing.Cursor.parse("1764748800123:01a23af3-55e0-71b1-a9d4-e6284d5e574a"))
                .isEqualTo(new JobListing.Cursor(1764748800123L, "01a23af3-55e0-71b1-a9d4-e6284d5e574a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", ":abc", "12:", "1:a b", "x1:abc", "1234567890123456789:abc"})
    void anything_else_is_no_cursor(String raw) {
        assertThat(JobListing.Cursor.parse(raw)).isNull();
    }
}
