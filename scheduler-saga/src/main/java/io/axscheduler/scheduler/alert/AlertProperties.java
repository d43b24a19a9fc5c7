package io.axscheduler.scheduler.alert;

import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.alerts.*}: the channels alerts go to, the rules set in properties, and the limits of evaluation and
 * delivery.
 *
 * @param evaluateMs how often the evaluating node checks every rule
 * @param eventWindowMs how far back the failure rules count, and how long a lost worker's alert stays up
 * @param maxPerRule notifications a rule sends at most per {@code rateWindowMs}; raises past it are recorded, not sent
 * @param deliveryRetries retries of a failed delivery (a job of type {@code ax-alert}, with exponential backoff)
 * @param deliveryTimeoutMs connect and read timeout of one delivery
 */
@ConfigurationProperties("ax.alerts")
public record AlertProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("5000") long evaluateMs,
        @DefaultValue("600000") long eventWindowMs,
        @DefaultValue("20") int maxPerRule,
        @DefaultValue("3600000") long rateWindowMs,
        @DefaultValue("5") int deliveryRetries,
        @DefaultValue("10000") long deliveryTimeoutMs,
        Map<String, Channel> channels,
        List<AlertRule> rules) {

    public AlertProperties {
        if (evaluateMs < 100 || evaluateMs > 600_000)
            throw new IllegalArgumentException("ax.alerts.evaluate-ms must be 100..600000");
        if (eventWindowMs < 1000) throw new IllegalArgumentException("ax.alerts.event-window-ms must be >= 1000");
        if (maxPerRule < 1) throw new IllegalArgumentException("ax.alerts.max-per-rule must be >= 1");
        if (deliveryRetries < 0 || deliveryRetries > 20)
            throw new IllegalArgumentException("ax.alerts.delivery-retries must be 0..20");
        channels = channels == null ? Map.of() : Map.copyOf(channels);
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    /** A named channel: {@code type} webhook, slack, dingtalk, feishu or email. */
    public record Channel(String type, String url, String secret, List<String> to, String from) {}
}
