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
 * @param eventWindowMs how far back the failure rules count, how long a lost worker's alert stays up, and how recently
 *     a schedule must have been created or changed for {@code CRON_RUNAWAY} to look at it
 * @param rateLimit how many raises a rule, and a channel, may notify per window
 * @param deliveryRetries retries of a failed delivery (a job of type {@code ax-alert}, with exponential backoff)
 * @param deliveryTimeoutMs connect and read timeout of one delivery
 */
@ConfigurationProperties("ax.alerts")
public record AlertProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("5000") long evaluateMs,
        @DefaultValue("600000") long eventWindowMs,
        @DefaultValue RateLimit rateLimit,
        @DefaultValue("20") int deliveryRetries,
        @DefaultValue("10000") long deliveryTimeoutMs,
        Map<String, Channel> channels,
        List<AlertRule> rules) {

    /** The longest rate window and forMs: the notification rows are kept this long. */
    public static final long MAX_WINDOW_MS = 86_400_000L;

    public static final int MAX_PER_WINDOW = 10_000;

    public AlertProperties {
        if (evaluateMs < 100 || evaluateMs > 600_000)
            throw new IllegalArgumentException("ax.alerts.evaluate-ms must be 100..600000");
        if (eventWindowMs < 1000 || eventWindowMs > MAX_WINDOW_MS)
            throw new IllegalArgumentException("ax.alerts.event-window-ms must be 1000..86400000");
        if (deliveryRetries < 0 || deliveryRetries > 100)
            throw new IllegalArgumentException("ax.alerts.delivery-retries must be 0..100");
        if (deliveryTimeoutMs < 100 || deliveryTimeoutMs > 600_000)
            throw new IllegalArgumentException("ax.alerts.delivery-timeout-ms must be 100..600000");
        channels = channels == null ? Map.of() : Map.copyOf(channels);
        rules = rules == null ? List.of() : List.copyOf(rules);
        channels.forEach((name, channel) -> {
            if (name.length() > 100) throw new IllegalArgumentException("ax.alerts.channels: names up to 100 chars");
            if (channel.maxPerWindow() != null
                    && (channel.maxPerWindow() < 1 || channel.maxPerWindow() > MAX_PER_WINDOW))
                throw new IllegalArgumentException(
                        "ax.alerts.channels." + name + ".max-per-window must be 1.." + MAX_PER_WINDOW);
            // a node with alerts off keeps whatever channels it was given, unused
            if (enabled) channel.check(name);
        });
    }

    /** The raises {@code channel} may be told of per window: its own limit, else the default per channel. */
    public int channelLimit(String channel) {
        Channel c = channels.get(channel);
        return c == null || c.maxPerWindow() == null ? rateLimit.perChannel() : c.maxPerWindow();
    }

    /** The raises {@code rule} may notify per window: its own limit, else the default per rule. */
    public int ruleLimit(AlertRule rule) {
        return rule.maxPerWindow() == null ? rateLimit.perRule() : rule.maxPerWindow();
    }

    /**
     * {@code ax.alerts.rate-limit.*}. A raise notifies only while its rule has notified fewer than its limit within the
     * last {@code windowMs}, and then only the channels told of fewer than their limit (raises of every rule counted).
     * A raise past the limits is still recorded ({@code notified: false}, or fewer channels); a resolve goes to exactly
     * the channels told of its raise and counts against no limit.
     *
     * @param windowMs the window both limits count in
     * @param perRule raises one rule notifies per window, unless the rule sets {@code maxPerWindow}
     * @param perChannel raises one channel is told of per window, unless the channel sets {@code max-per-window}
     */
    public record RateLimit(
            @DefaultValue("3600000") long windowMs,
            @DefaultValue("20") int perRule,
            @DefaultValue("60") int perChannel) {
        public RateLimit {
            if (windowMs < 1000 || windowMs > MAX_WINDOW_MS)
                throw new IllegalArgumentException("ax.alerts.rate-limit.window-ms must be 1000..86400000");
            if (perRule < 1 || perRule > MAX_PER_WINDOW)
                throw new IllegalArgumentException("ax.alerts.rate-limit.per-rule must be 1.." + MAX_PER_WINDOW);
            if (perChannel < 1 || perChannel > MAX_PER_WINDOW)
                throw new IllegalArgumentException("ax.alerts.rate-limit.per-channel must be 1.." + MAX_PER_WINDOW);
        }
    }

    /**
     * A named channel: {@code type} webhook, slack, dingtalk, feishu or email; {@code maxPerWindow} overrides
     * {@code ax.alerts.rate-limit.per-channel} for it.
     */
    public record Channel(String type, String url, String secret, List<String> to, String from, Integer maxPerWindow) {

        public static final List<String> TYPES = List.of("webhook", "slack", "dingtalk", "feishu", "email");

        /**
         * Refuses at start what a delivery would fail on at the first alert (a misspelt type, a webhook with no
         * address, a mail to nobody), naming the setting.
         */
        void check(String name) {
            String prefix = "ax.alerts.channels." + name;
            String kind = type == null ? "webhook" : type;
            if (!TYPES.contains(kind))
                throw new IllegalArgumentException(
                        prefix + ".type is '" + type + "'; it must be one of " + String.join(", ", TYPES));
            if (kind.equals("email")) {
                if (to == null || to.isEmpty() || to.stream().anyMatch(a -> a == null || !a.contains("@")))
                    throw new IllegalArgumentException(prefix + ".to must name one or more mail addresses");
                return;
            }
            if (url == null || url.isBlank())
                throw new IllegalArgumentException(prefix + ".url is required for a " + kind + " channel");
            // the refusals never show the URL: a chat robot's carries its token in the path or query
            java.net.URI uri;
            try {
                uri = new java.net.URI(url);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException(
                        prefix + ".url is not a URL (" + e.getReason() + " at character " + e.getIndex() + ")");
            }
            if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    || uri.getHost() == null)
                throw new IllegalArgumentException(prefix + ".url must be an http(s) URL with a host, is "
                        + (uri.getScheme() == null ? "without a scheme" : "'" + uri.getScheme() + ":…'")
                        + (uri.getHost() == null ? " and without a host" : ""));
        }
    }
}
