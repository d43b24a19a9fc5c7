package io.axscheduler.scheduler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.scheduler.SchedulerProperties;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class JobExecutorsTest {

    private static final SchedulerProperties SETTINGS = new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("ax.scheduler", SchedulerProperties.class);

    private static JobHandler handler(String type) {
        return new JobHandler() {
            @Override
            public String jobType() {
                return type;
            }

            @Override
            public String execute(JobContext context) {
                return null;
            }
        };
    }

    @Test
    void a_type_other_nodes_could_not_find_in_its_reported_pools_stops_the_node_starting() {
        for (String type : new String[] {"say \"hi\"", "back\\slash", "line\nbreak", " ", ""}) {
            assertThatThrownBy(() -> new JobExecutors(List.of(handler(type)), SETTINGS))
                    .as(type)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must not be blank nor hold quotes");
        }
    }

    @Test
    void names_with_dots_colons_dashes_and_letters_of_any_script_are_types() {
        var executors = new JobExecutors(
                List.of(handler("order.close"), handler("billing:monthly"), handler("sync-data"), handler("日次")),
                SETTINGS);
        assertThat(executors.inProcessTypes()).containsExactly("order.close", "billing:monthly", "sync-data", "日次");
    }
}
