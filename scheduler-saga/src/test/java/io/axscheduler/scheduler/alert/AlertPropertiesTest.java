package io.axscheduler.scheduler.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.alert.AlertType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class AlertPropertiesTest {

    private static AlertProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("ax.alerts", AlertProperties.class);
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    @Test
    void a_rule_and_a_channel_take_their_own_limit_or_the_default() {
        AlertProperties p = bind(Map.of(
                "ax.alerts.rate-limit.per-rule", "7",
                "ax.alerts.rate-limit.per-channel", "9",
                "ax.alerts.channels.ops.type", "webhook",
                "ax.alerts.channels.ops.url", "https://hooks.example.com/ops",
                "ax.alerts.channels.ops.max-per-window", "2",
                "ax.alerts.channels.mail.type", "email",
                "ax.alerts.channels.mail.to", "ops@example.com",
                "ax.alerts.rules[0].name", "own",
                "ax.alerts.rules[0].type", "QUEUE_DEPTH",
                "ax.alerts.rules[0].max-per-window", "3"));
        assertThat(p.channelLimit("ops")).isEqualTo(2);
        assertThat(p.channelLimit("mail")).isEqualTo(9);
        assertThat(p.ruleLimit(p.rules().get(0))).isEqualTo(3);
        assertThat(p.ruleLimit(new AlertRule("other", AlertType.JOB_FAILED, null, null, null, List.of(), null)))
                .isEqualTo(7);
    }

    @Test
    void the_defaults_are_one_hour_twenty_per_rule_and_sixty_per_channel() {
        AlertProperties p = bind(Map.of());
        assertThat(p.rateLimit().windowMs()).isEqualTo(3_600_000);
        assertThat(p.rateLimit().perRule()).isEqualTo(20);
        assertThat(p.rateLimit().perChannel()).isEqualTo(60);
    }

    @Test
    void limits_out_of_bounds_are_refused_naming_the_setting() {
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.rate-limit.per-rule", "0")))
                .hasStackTraceContaining("ax.alerts.rate-limit.per-rule");
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.rate-limit.window-ms", "172800000")))
                .hasStackTraceContaining("ax.alerts.rate-limit.window-ms");
        assertThatThrownBy(() -> bind(
                        Map.of("ax.alerts.channels.ops.type", "webhook", "ax.alerts.channels.ops.max-per-window", "0")))
                .hasStackTraceContaining("ax.alerts.channels.ops.max-per-window");
    }

    @Test
    void a_channel_a_delivery_would_fail_on_is_refused_at_start_naming_the_setting() {
        assertThatThrownBy(() -> bind(Map.of(
                        "ax.alerts.channels.oncall.type", "webook",
                        "ax.alerts.channels.oncall.url", "https://hooks.example.com/x")))
                .hasStackTraceContaining("ax.alerts.channels.oncall.type is 'webook'; it must be one of webhook");
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.channels.oncall.type", "webhook")))
                .hasStackTraceContaining("ax.alerts.channels.oncall.url is required for a webhook channel");
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.channels.oncall.url", "not-a-url")))
                .hasStackTraceContaining("ax.alerts.channels.oncall.url must be an http(s) URL with a host");
        // a robot's token in a mistyped URL is not repeated in the log
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.channels.oncall.url", "htps://hooks.example.com/T/B/sekrit")))
                .hasStackTraceContaining("is 'htps:…'")
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(stackTrace(e))
                        .doesNotContain("sekrit"));
        // a node with alerts off keeps channels it does not use
        assertThat(bind(Map.of("ax.alerts.enabled", "false", "ax.alerts.channels.unused.type", "webook"))
                        .channels())
                .containsKey("unused");
        assertThatThrownBy(() -> bind(Map.of("ax.alerts.channels.mail.type", "email")))
                .hasStackTraceContaining("ax.alerts.channels.mail.to must name one or more mail addresses");
        assertThat(bind(Map.of("ax.alerts.channels.hook.url", "http://127.0.0.1:9/x"))
                        .channels())
                .containsKey("hook");
    }
}
