package io.axscheduler.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The console's settings records bind the names and defaults docs/operations.md documents, and refuse bad values. */
class ConsolePropertiesTest {

    private static final Map<String, String> ASSETS = Map.of(
            "ax.console.assets.htmx", "/webjars/htmx.js",
            "ax.console.assets.sse", "/webjars/sse.js",
            "ax.console.assets.echarts", "/webjars/echarts.js");

    private static ConsoleProperties bind(Map<String, String> extra) {
        Map<String, String> all = new HashMap<>(ASSETS);
        all.putAll(extra);
        return new Binder(new MapConfigurationPropertySource(all)).bindOrCreate("ax.console", ConsoleProperties.class);
    }

    @Test
    void the_console_settings_bind_their_documented_names_and_defaults() {
        assertThat(bind(Map.of()))
                .isEqualTo(new ConsoleProperties(
                        new ConsoleProperties.Assets("/webjars/htmx.js", "/webjars/sse.js", "/webjars/echarts.js"),
                        48,
                        8,
                        5_000));
        ConsoleProperties set = bind(Map.of(
                "ax.console.fires-per-day-warning", "24",
                "ax.console.stats-retention-days", "3",
                "ax.console.node-beat-ms", "1000"));
        assertThat(set.firesPerDayWarning()).isEqualTo(24);
        assertThat(set.statsRetentionDays()).isEqualTo(3);
        assertThat(set.nodeBeatMs()).isEqualTo(1_000);
    }

    @Test
    void the_node_name_binds_ax_node_id() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of("ax.node.id", "node-7")));
        assertThat(binder.bindOrCreate("ax.node", NodeName.class).id()).isEqualTo("node-7");
        assertThat(new Binder(new MapConfigurationPropertySource(Map.of()))
                        .bindOrCreate("ax.node", NodeName.class)
                        .id())
                .isEqualTo("node");
    }

    @Test
    void a_value_out_of_range_or_a_missing_asset_stops_the_binding_naming_the_setting() {
        assertThatThrownBy(() -> bind(Map.of("ax.console.node-beat-ms", "10")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageContaining("ax.console.node-beat-ms");
        assertThatThrownBy(() -> bind(Map.of("ax.console.stats-retention-days", "0")))
                .rootCause()
                .hasMessageContaining("ax.console.stats-retention-days");
        assertThatThrownBy(() -> new Binder(new MapConfigurationPropertySource(Map.of()))
                        .bindOrCreate("ax.console", ConsoleProperties.class))
                .rootCause()
                .hasMessageContaining("ax.console.assets");
    }
}
