package io.axscheduler.command;

import java.time.Duration;
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
    CommittedOnlyCache jobCache(AggregateCacheProperties settings) {
        return CommittedOnlyCache.bounded(
                "ax.command.job-cache-entries",
                settings.jobCacheEntries(),
                Duration.ofMillis(settings.jobCacheLifetimeMs()));
    }

    @Bean(SCHEDULES)
    CommittedOnlyCache scheduleCache(AggregateCacheProperties settings) {
        return CommittedOnlyCache.bounded("ax.command.schedule-cache-entries", settings.scheduleCacheEntries());
    }

    @Bean(JOB_LOCKS)
    AggregateLocks jobLocks(AggregateCacheProperties settings) {
        return new AggregateLocks("job", settings.aggregateLockWaitMs());
    }

    @Bean(SCHEDULE_LOCKS)
    AggregateLocks scheduleLocks(AggregateCacheProperties settings) {
        return new AggregateLocks("schedule", settings.aggregateLockWaitMs());
    }
}
