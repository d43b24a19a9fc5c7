package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.alert.AlertJobKeys;
import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.api.worker.CallbackSignature;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.stereotype.Component;

/**
 * {@value #JOB_TYPE}: tells one channel of one alert's raise or resolve. A channel that does not answer 2xx (or a mail
 * server that refuses) fails the attempt, and the job's retry policy tries again with backoff. Formats:
 * <ul>
 *   <li>{@code webhook}: the alert as JSON, signed as callbacks are ({@code X-Ax-Timestamp}, {@code X-Ax-Signature},
 *       HMAC-SHA256 with the channel's secret) when it has one;</li>
 *   <li>{@code slack}: {@code {"text": …}} (Slack incoming webhooks and compatible ones);</li>
 *   <li>{@code dingtalk}: a text message; with a secret, signed in the URL as DingTalk's robots check;</li>
 *   <li>{@code feishu}: a text message; with a secret, signed in the body as Feishu/Lark bots check;</li>
 *   <li>{@code email}: a plain-text mail to {@code to}, through the node's {@code spring.mail.*} server.</li>
 * </ul>
 */
@Component
public class DeliverAlert implements JobHandler {

    private static final Logger log = LoggerFactory.getLogger(DeliverAlert.class);

    public static final String JOB_TYPE = "ax-alert";
    static final String CHANNEL = "channel";
    static final String ALERT = "alert";
    static final int MAX_ANSWER = 300;

    private final AlertProperties properties;
    private final ObjectMapper json;
    private final ObjectProvider<JavaMailSender> mail;
    private final Clock clock;
    private final HttpClient http;
    private final NamedParameterJdbcTemplate jdbc;

    public DeliverAlert(
            AlertProperties properties,
            ObjectMapper json,
            ObjectProvider<JavaMailSender> mail,
            Clock clock,
            NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.json = json;
        this.mail = mail;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(properties.deliveryTimeoutMs()))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public String jobType() {
        return JOB_TYPE;
    }

    @Override
    public int concurrency() {
        return 4;
    }

    @Override
    @SuppressWarnings("unchecked")
    public String execute(JobContext job) throws Exception {
        String channel = job.stringParam(CHANNEL, null);
        Map<String, Object> alert = (Map<String, Object>) job.params().get(ALERT);
        firingToldFirst(channel, alert);
        try {
            return deliver(channel, alert);
        } catch (Exception e) {
            // a broken channel is seen in the node's log too, not only on the alert and the job
            log.warn(
                    "alert {} ({} {}) not delivered to {} (attempt {}): {}",
                    alert.get("alertId"),
                    alert.get("rule"),
                    alert.get("state"),
                    channel,
                    job.attempt(),
                    e.getMessage());
            throw e;
        }
    }

    /**
     * A resolve waits for its raise: each is a job of its own, retried on its own, so after a channel's outage the
     * resolve could reach it first and leave a receiver that keeps the last word with an alert firing for good. While
     * the raise's delivery to this channel is still to go out (waiting, retried, running) the resolve's attempt fails
     * and is retried after it; once the raise went out, or its retries ran out, the resolve goes.
     */
    private void firingToldFirst(String channel, Map<String, Object> alert) {
        if (!"RESOLVED".equals(alert.get("state"))) return;
        List<String> pending = jdbc.queryForList(
                "SELECT q.status FROM job_keys k JOIN job_queue q ON q.job_id = k.job_id"
                        + " WHERE k.job_key = :key AND k.namespace = :ns"
                        + " AND (q.status IN ('WAITING', 'RETRY_WAITING', 'CLAIMED', 'RUNNING')"
                        // failed with a retry left: the retry is about to be scheduled
                        + " OR (q.status IN ('FAILED', 'TIMED_OUT') AND q.attempt <= q.max_retries))",
                Map.of(
                        "key",
                        AlertJobKeys.of(String.valueOf(alert.get("alertId")), "FIRING", channel),
                        "ns",
                        Namespaces.SYSTEM),
                String.class);
        if (!pending.isEmpty())
            throw new IllegalStateException("the alert's FIRING delivery to " + channel + " has not gone out yet ("
                    + pending.get(0) + "): the RESOLVED one follows it");
    }

    /** Tells {@code channelName} of {@code alert} (the webhook body); throws when the channel does not take it. */
    public String deliver(String channelName, Map<String, Object> alert) throws Exception {
        AlertProperties.Channel channel = properties.channels().get(channelName);
        if (channel == null)
            throw new IllegalStateException("no alert channel " + channelName + " in ax.alerts.channels");
        String text = alert.get("state") + " " + alert.get("message");
        String type = channel.type() == null ? "webhook" : channel.type();
        return switch (type) {
            case "webhook" -> post(channel.url(), json.writeValueAsString(alert), channel.secret(), true);
            case "slack" -> post(channel.url(), json.writeValueAsString(Map.of("text", text)), null, false);
            case "dingtalk" ->
                post(
                        dingTalkUrl(channel),
                        json.writeValueAsString(Map.of("msgtype", "text", "text", Map.of("content", text))),
                        null,
                        false);
            case "feishu" -> post(channel.url(), json.writeValueAsString(feishuBody(channel, text)), null, false);
            case "email" -> email(channel, alert, text);
            default -> throw new IllegalStateException("alert channel " + channelName + " has unknown type " + type);
        };
    }

    private String post(String url, String body, String secret, boolean signed) throws Exception {
        if (url == null) throw new IllegalStateException("the alert channel has no url");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMillis(properties.deliveryTimeoutMs()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (signed && secret != null) {
            long now = clock.millis();
            request.header(CallbackSignature.TIMESTAMP_HEADER, Long.toString(now))
                    .header(CallbackSignature.SIGNATURE_HEADER, CallbackSignature.sign(secret, now, body));
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            // the host and port only: a chat robot's URL carries its token in the path or query, a URL may hold a
            // password
            URI to = URI.create(url);
            throw new IllegalStateException(
                    "could not reach the alert channel at " + to.getScheme() + "://" + to.getHost()
                            + (to.getPort() == -1 ? "" : ":" + to.getPort()) + ": " + e,
                    e);
        }
        String excerpt = answer.body() == null
                ? ""
                : answer.body().substring(0, Math.min(MAX_ANSWER, answer.body().length()));
        if (answer.statusCode() / 100 != 2) {
            throw new IllegalStateException("alert channel answered " + answer.statusCode() + ": " + excerpt);
        }
        return "delivered (" + answer.statusCode() + ")";
    }

    private String dingTalkUrl(AlertProperties.Channel channel) throws Exception {
        if (channel.secret() == null) return channel.url();
        long now = clock.millis();
        String sign = Base64.getEncoder().encodeToString(hmac(channel.secret(), now + "\n" + channel.secret()));
        return channel.url() + (channel.url().contains("?") ? "&" : "?") + "timestamp=" + now + "&sign="
                + URLEncoder.encode(sign, StandardCharsets.UTF_8);
    }

    private Map<String, Object> feishuBody(AlertProperties.Channel channel, String text) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        if (channel.secret() != null) {
            long seconds = clock.millis() / 1000;
            // Feishu signs an empty message with the key "timestamp\nsecret"
            body.put("timestamp", Long.toString(seconds));
            body.put("sign", Base64.getEncoder().encodeToString(hmac(seconds + "\n" + channel.secret(), "")));
        }
        body.put("msg_type", "text");
        body.put("content", Map.of("text", text));
        return body;
    }

    private String email(AlertProperties.Channel channel, Map<String, Object> alert, String text) throws Exception {
        JavaMailSender sender = mail.getIfAvailable();
        if (sender == null) throw new IllegalStateException("no mail server: set spring.mail.host");
        List<String> to = channel.to() == null ? List.of() : channel.to();
        if (to.isEmpty()) throw new IllegalStateException("the email channel names no recipient (to)");
        SimpleMailMessage message = new SimpleMailMessage();
        message.setTo(to.toArray(String[]::new));
        if (channel.from() != null) message.setFrom(channel.from());
        message.setSubject("[ax-scheduler] " + text);
        message.setText(text + "\n\n" + json.writerWithDefaultPrettyPrinter().writeValueAsString(alert));
        sender.send(message);
        return "mailed to " + to.size();
    }

    private static byte[] hmac(String key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }
}
