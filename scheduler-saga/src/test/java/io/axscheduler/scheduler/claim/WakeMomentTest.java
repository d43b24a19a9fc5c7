package io.axscheduler.scheduler.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WakeMomentTest {

    @Test
    void a_job_claimed_ahead_is_scanned_for_within_the_look_ahead_and_at_least_half_of_it_before_it_is_due() {
        for (long ahead : new long[] {2, 3, 20, 21, 400, 1000}) {
            for (long due = 1_000_000; due < 1_003_000; due++) {
                long at = ScanDueJobs.wakeMoment(due, ahead);
                // the claim takes jobs due up to the look-ahead past the scan: this one from dueMs - ahead on
                assertThat(at).as("due %d, ahead %d", due, ahead).isGreaterThan(due - ahead);
                assertThat(at).as("due %d, ahead %d", due, ahead).isLessThanOrEqualTo(due - ahead / 2 + 1);
            }
        }
    }

    @Test
    void jobs_due_every_millisecond_share_a_scan_per_half_look_ahead() {
        Set<Long> moments = new HashSet<>();
        for (long due = 1_000_000; due < 1_001_000; due++) moments.add(ScanDueJobs.wakeMoment(due, 20));
        assertThat(moments).hasSize(100);
    }

    @Test
    void without_a_look_ahead_a_job_is_scanned_for_just_past_its_due_time() {
        assertThat(ScanDueJobs.wakeMoment(5_000, 0)).isEqualTo(5_001);
        assertThat(ScanDueJobs.wakeMoment(5_000, 1)).isEqualTo(5_000);
    }
}
