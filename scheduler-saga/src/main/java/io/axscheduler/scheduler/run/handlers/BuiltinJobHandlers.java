package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.scheduler.SchedulerProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The job types every node has: {@code http} always, {@code noop}, {@code sleep} and {@code flaky} unless switched off. */
@Configuration(proxyBeanMethods = false)
public class BuiltinJobHandlers {

    @Bean
    HttpJobHandler httpJobHandler(SchedulerProperties properties) {
        SchedulerProperties.Jobs jobs = properties.jobs();
        return new HttpJobHandler(jobs.httpAllowedHosts(), jobs.httpConnectTimeoutMs(), jobs.httpReadTimeoutMs());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "ax.scheduler.jobs.builtins-enabled", havingValue = "true", matchIfMissing = true)
    static class DemoTypes {

        @Bean
        NoopJobHandler noopJobHandler() {
            return new NoopJobHandler();
        }

        @Bean
        SleepJobHandler sleepJobHandler(SchedulerProperties properties) {
            return new SleepJobHandler(properties.jobs().maxSleepMs());
        }

        @Bean
        FlakyJobHandler flakyJobHandler() {
            return new FlakyJobHandler();
        }
    }
}
