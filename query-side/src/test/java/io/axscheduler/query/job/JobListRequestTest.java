package io.axscheduler.query.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobListRequestTest {

    private static InvalidRequestException refusal(String status, String page, String size) {
        return catchThrowableOfType(
                InvalidRequestException.class, () -> JobListRequest.parse(status, null, null, page, size, null));
    }

    @Test
    void absent_parameters_ask_for_the_first_page_of_fifty_unfiltered_jobs() {
        assertThat(JobListRequest.parse(null, null, null, null, null, null))
                .isEqualTo(new JobListRequest(null, null, null, 0, 50, null));
    }

    @Test
    void blank_parameters_count_as_absent() {
        assertThat(JobListRequest.parse("", " ", "", "", "", null))
                .isEqualTo(new JobListRequest(null, null, null, 0, 50, null));
    }

    @Test
    void given_values_are_kept_and_the_offset_skips_the_earlier_pages() {
        JobListRequest request = JobListRequest.parse("RETRY_WAITING", "http", "schedule-9", "3", "500", null);

        assertThat(request).isEqualTo(new JobListRequest(JobStatus.RETRY_WAITING, "http", "schedule-9", 3, 500, null));
        assertThat(request.offset()).isEqualTo(1_500);
    }

    @Test
    void the_offset_of_a_far_page_does_not_overflow() {
        assertThat(JobListRequest.parse(null, null, null, String.valueOf(Integer.MAX_VALUE), "500", null)
                        .offset())
                .isEqualTo(Integer.MAX_VALUE * 500L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "501", "-1", "ten", "1.5", "99999999999"})
    void a_size_outside_1_to_500_is_refused_naming_size(String size) {
        assertThat(refusal(null, null, size).errors())
                .extracting(FieldError::field)
                .containsExactly("size");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "first", "99999999999"})
    void a_negative_or_non_numeric_page_is_refused_naming_page(String page) {
        assertThat(refusal(null, page, null).errors())
                .extracting(FieldError::field)
                .containsExactly("page");
    }

    @ParameterizedTest
    @ValueSource(strings = {"DONE", "waiting", "RUNNING,FAILED"})
    void a_status_that_is_not_a_job_status_name_is_refused_naming_status(String status) {
        assertThat(refusal(status, null, null).errors())
                .extracting(FieldError::field)
                .containsExactly("status");
    }

    @Test
    void every_bad_field_is_named_in_one_refusal() {
        assertThat(refusal("DONE", "-1", "0").errors())
                .extracting(FieldError::field)
                .containsExactly("status", "page", "size");
    }
}
