package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.net.AddressPolicy;
import io.axscheduler.scheduler.net.HostResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The job types every node has: {@code http} always, {@code noop}, {@code sleep} and {@code flaky} unless switched off. */
@Configuration(proxyBeanMethods = false)
public class BuiltinJobHandlers {

    /** Host names resolve through the system's resolver unless the deployment has a {@link HostResolver} bean. */
    @Bean
    HttpJobHandler httpJobHandler(SchedulerProperties properties, ObjectProvider<HostResolver> resolvers) {
        SchedulerProperties.Jobs jobs = properties.jobs();
        HostResolver resolver = resolvers.getIfAvailable(() -> HostResolver.SYSTEM);
        return new HttpJobHandler(
                AddressPolicy.of(HttpJobHandler.SETTING, jobs.httpAllowedHosts(), resolver),
                jobs.httpConnectTimeoutMs(),
                jobs.httpReadTimeoutMs(),
                jobs.httpMaxResponseBytes(),
                jobs.httpMaxRedirects());
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
