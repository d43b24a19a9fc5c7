package io.axscheduler.command;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One bounded cache per aggregate type, their sizes limits of the node like any other; and each type's in-memory
 * locks (see {@link AggregateLocks}).
 */
@Configuration(proxyBeanMethods = false)
public class AggregateCaches {

    public static final String JOBS = "jobCache";
    public static final String SCHEDULES = "scheduleCache";
    public static final String JOB_LOCKS = "jobLocks";
    public static final String SCHEDULE_LOCKS = "scheduleLocks";

    @Bean(JOBS)
    CommittedOnlyCache jobCache(@Value("${ax.command.job-cache-entries:20000}") int entries) {
        return CommittedOnlyCache.bounded("ax.command.job-cache-entries", entries);
    }

    @Bean(SCHEDULES)
    CommittedOnlyCache scheduleCache(@Value("${ax.command.schedule-cache-entries:100000}") int entries) {
        return CommittedOnlyCache.bounded("ax.command.schedule-cache-entries", entries);
    }

    @Bean(JOB_LOCKS)
    AggregateLocks jobLocks(@Value("${ax.command.aggregate-lock-wait-ms:10000}") long waitMs) {
        return new AggregateLocks("job", waitMs);
    }

    @Bean(SCHEDULE_LOCKS)
    AggregateLocks scheduleLocks(@Value("${ax.command.aggregate-lock-wait-ms:10000}") long waitMs) {
        return new AggregateLocks("schedule", waitMs);
    }
}
