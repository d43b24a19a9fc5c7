package io.axscheduler.command;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One bounded cache per aggregate type; their sizes are limits of the node like any other. */
@Configuration(proxyBeanMethods = false)
public class AggregateCaches {

    public static final String JOBS = "jobCache";
    public static final String SCHEDULES = "scheduleCache";

    @Bean(JOBS)
    CommittedOnlyCache jobCache(@Value("${ax.command.job-cache-entries:20000}") int entries) {
        return CommittedOnlyCache.bounded("ax.command.job-cache-entries", entries);
    }

    @Bean(SCHEDULES)
    CommittedOnlyCache scheduleCache(@Value("${ax.command.schedule-cache-entries:100000}") int entries) {
        return CommittedOnlyCache.bounded("ax.command.schedule-cache-entries", entries);
    }
}
