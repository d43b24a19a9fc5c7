package io.axscheduler.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.axonmysql.saga.SegmentRoutedSagaManager;
import org.junit.jupiter.api.Test;

class JobLifecycleSagaTypesTest {

    @Test
    void the_job_saga_handles_the_ends_of_an_attempt_and_not_its_creation_or_claim() {
        assertThat(SegmentRoutedSagaManager.handledTypes(JobLifecycleSaga.class))
                .containsExactlyInAnyOrder(
                        JobStarted.class, JobSucceeded.class, JobFailed.class, JobTimedOut.class, JobCanceled.class);
    }
}
