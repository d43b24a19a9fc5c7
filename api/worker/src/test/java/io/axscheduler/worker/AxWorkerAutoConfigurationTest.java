package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class AxWorkerAutoConfigurationTest {

    @Test
    void a_retired_setting_still_given_is_warned_about_by_name() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("ax.worker.scheduler-url", "http://localhost:8080")
                .withProperty("ax.worker.callback-attempts", "5");
        assertThat(AxWorkerAutoConfiguration.retiredSettings(environment))
                .singleElement()
                .asString()
                .startsWith("ax.worker.callback-attempts is no longer read")
                .contains("ax.worker.callback-retry-ms");
        assertThat(AxWorkerAutoConfiguration.retiredSettings(
                        new MockEnvironment().withProperty("ax.worker.scheduler-url", "http://localhost:8080")))
                .isEmpty();
    }
}
