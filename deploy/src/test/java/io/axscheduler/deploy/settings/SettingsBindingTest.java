package io.axscheduler.deploy.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.command.AggregateCacheProperties;
import io.axscheduler.command.schedule.ScheduleRequestProperties;
import io.axscheduler.deploy.security.BootstrapSettings;
import io.axscheduler.deploy.security.OidcSettings;
import io.axscheduler.deploy.security.SecuritySettings;
import io.axscheduler.query.stats.StatusCountProperties;
import io.axscheduler.query.stream.StreamProperties;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.remote.RemoteProperties;
import io.axscheduler.scheduler.remote.WorkerAddressProperties;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The settings records bind the names and defaults docs/operations.md documents, application.yml agrees with them,
 * and a value out of range stops the binding with a message naming the setting.
 */
class SettingsBindingTest {

    private static Binder binder(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties));
    }

    private static <T> T bind(String prefix, Class<T> type, Map<String, String> properties) {
        return binder(properties).bindOrCreate(prefix, type);
    }

    private static Binder applicationYml() throws IOException {
        List<PropertySource<?>> yml =
                new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"));
        return new Binder(ConfigurationPropertySources.from(yml));
    }

    @Test
    void the_command_sides_aggregate_settings_bind_their_documented_names_and_defaults() throws IOException {
        assertThat(bind("ax.command", AggregateCacheProperties.class, Map.of()))
                .isEqualTo(new AggregateCacheProperties(20_000, 600_000, 100_000, 10_000));
        assertThat(bind(
                        "ax.command",
                        AggregateCacheProperties.class,
                        Map.of(
                                "ax.command.job-cache-entries", "0",
                                "ax.command.job-cache-lifetime-ms", "1000",
                                "ax.command.schedule-cache-entries", "7",
                                "ax.command.aggregate-lock-wait-ms", "60000")))
                .isEqualTo(new AggregateCacheProperties(0, 1_000, 7, 60_000));
        assertThat(applicationYml().bindOrCreate("ax.command", AggregateCacheProperties.class))
                .isEqualTo(bind("ax.command", AggregateCacheProperties.class, Map.of()));
    }

    @Test
    void the_schedule_floor_binds_its_documented_name_and_default() throws IOException {
        assertThat(bind("ax.scheduler.schedules", ScheduleRequestProperties.class, Map.of())
                        .minIntervalMs())
                .isEqualTo(1_000);
        assertThat(bind(
                                "ax.scheduler.schedules",
                                ScheduleRequestProperties.class,
                                Map.of("ax.scheduler.schedules.min-interval-ms", "60000"))
                        .minIntervalMs())
                .isEqualTo(60_000);
        assertThat(applicationYml().bindOrCreate("ax.scheduler.schedules", ScheduleRequestProperties.class))
                .isEqualTo(new ScheduleRequestProperties(1_000));
    }

    @Test
    void the_console_stream_and_count_settings_bind_their_documented_names_and_defaults() {
        assertThat(bind("ax.console.stream", StreamProperties.class, Map.of()))
                .isEqualTo(new StreamProperties(200, 1_000, 250, 1_800_000, 15_000, 30_000, 5_000));
        assertThat(bind(
                        "ax.console.stream",
                        StreamProperties.class,
                        Map.of(
                                "ax.console.stream.max-subscribers", "3",
                                "ax.console.stream.queue", "4",
                                "ax.console.stream.flush-ms", "50",
                                "ax.console.stream.timeout-ms", "6000",
                                "ax.console.stream.heartbeat-ms", "700",
                                "ax.console.stream.idle-stop-ms", "800",
                                "ax.console.stream.recheck-ms", "900")))
                .isEqualTo(new StreamProperties(3, 4, 50, 6_000, 700, 800, 900));
        assertThat(bind("ax.console.counts", StatusCountProperties.class, Map.of()))
                .isEqualTo(new StatusCountProperties(10_000, 30_000));
        assertThat(bind(
                        "ax.console.counts",
                        StatusCountProperties.class,
                        Map.of("ax.console.counts.exact-up-to", "5", "ax.console.counts.full-count-ms", "0")))
                .isEqualTo(new StatusCountProperties(5, 0));
    }

    @Test
    void the_node_id_binds_and_application_yml_makes_one_from_host_and_port() throws IOException {
        assertThat(bind("ax.node", NodeProperties.class, Map.of("ax.node.id", "node-7")))
                .isEqualTo(new NodeProperties("node-7"));
        // placeholders are left unresolved by a bare binder: the default is the expression docs/operations.md describes
        assertThat(applicationYml()
                        .bindOrCreate("ax.node", NodeProperties.class)
                        .id())
                .isEqualTo("${AX_NODE_ID:${HOSTNAME:localhost}-${server.port:8080}}");
    }

    @Test
    void the_remote_worker_settings_bind_their_documented_names_and_defaults() throws IOException {
        assertThat(bind("ax.scheduler.remote", RemoteProperties.class, Map.of()))
                .isEqualTo(new RemoteProperties(Duration.ofMinutes(10), 5_000));
        assertThat(bind(
                        "ax.scheduler.remote",
                        RemoteProperties.class,
                        Map.of(
                                "ax.scheduler.remote.no-worker-timeout", "1s",
                                "ax.scheduler.remote.no-worker-check-ms", "300")))
                .isEqualTo(new RemoteProperties(Duration.ofSeconds(1), 300));
        assertThat(applicationYml().bindOrCreate("ax.scheduler.remote", RemoteProperties.class))
                .isEqualTo(bind("ax.scheduler.remote", RemoteProperties.class, Map.of()));
        assertThat(bind("ax.workers", WorkerAddressProperties.class, Map.of()).allowedAddresses())
                .isEmpty();
        assertThat(bind(
                                "ax.workers",
                                WorkerAddressProperties.class,
                                Map.of("ax.workers.allowed-addresses", "10.0.0.0/8, *.internal"))
                        .allowedAddresses())
                .containsExactly("10.0.0.0/8", "*.internal");
        assertThatThrownBy(() -> bind(
                        "ax.scheduler.remote",
                        RemoteProperties.class,
                        Map.of("ax.scheduler.remote.no-worker-timeout", "400d")))
                .rootCause()
                .hasMessageContaining("ax.scheduler.remote.no-worker-timeout");
    }

    @Test
    void a_value_out_of_range_stops_the_binding_naming_the_setting() {
        assertThatThrownBy(() -> bind(
                        "ax.command", AggregateCacheProperties.class, Map.of("ax.command.aggregate-lock-wait-ms", "0")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageContaining("ax.command.aggregate-lock-wait-ms");
        assertThatThrownBy(
                        () -> bind("ax.console.stream", StreamProperties.class, Map.of("ax.console.stream.queue", "0")))
                .rootCause()
                .hasMessageContaining("ax.console.stream.queue");
        assertThatThrownBy(() -> bind(
                        "ax.scheduler.schedules",
                        ScheduleRequestProperties.class,
                        Map.of("ax.scheduler.schedules.min-interval-ms", "-1")))
                .rootCause()
                .hasMessageContaining("ax.scheduler.schedules.min-interval-ms");
        assertThatThrownBy(() -> bind("ax.node", NodeProperties.class, Map.of("ax.node.id", " ")))
                .rootCause()
                .hasMessageContaining("ax.node.id");
    }

    @Test
    void the_security_settings_bind_their_documented_names_and_defaults() throws IOException {
        SecuritySettings defaults = bind("ax.security", SecuritySettings.class, Map.of());
        assertThat(defaults.login()).isEqualTo(new SecuritySettings.Login(5, 60_000, 20, 60_000, 300_000));
        assertThat(defaults.cors().allowedOrigins()).isEmpty();
        assertThat(applicationYml().bindOrCreate("ax.security", SecuritySettings.class))
                .isEqualTo(defaults);
        SecuritySettings set = bind(
                "ax.security",
                SecuritySettings.class,
                Map.of(
                        "ax.security.login.max-failures-per-address", "0",
                        "ax.security.login.address-lock-ms", "1000",
                        "ax.security.cors.allowed-origins", "https://a.example, https://b.example"));
        assertThat(set.login().maxFailuresPerAddress()).isZero();
        assertThat(set.login().addressLockMs()).isEqualTo(1_000);
        assertThat(set.cors().allowedOrigins()).containsExactly("https://a.example", "https://b.example");

        assertThat(bind("ax.oidc", OidcSettings.class, Map.of()))
                .isEqualTo(new OidcSettings(
                        "",
                        "",
                        "ax_grants",
                        "",
                        "",
                        List.of("openid"),
                        "Single sign-on",
                        Duration.ofSeconds(10),
                        Duration.ofHours(1),
                        List.of()));
        OidcSettings login = bind(
                "ax.oidc",
                OidcSettings.class,
                Map.of(
                        "ax.oidc.issuer-uri", "https://idp.example",
                        "ax.oidc.client-id", "ax",
                        "ax.oidc.client-secret", "s",
                        "ax.oidc.scopes", "profile email groups"));
        assertThat(login.loginEnabled()).isTrue();
        assertThat(login.scopes()).containsExactly("openid", "profile", "email", "groups");
        // tokens are taken when issued for the console's client, by default
        assertThat(login.audiences()).containsExactly("ax");
        assertThat(login.takes(List.of("ax"), null)).isTrue();
        assertThat(login.takes(List.of("account"), "ax")).isTrue();
        assertThat(login.takes(List.of("other-app"), "other-app")).isFalse();
        assertThat(login.takes(null, null)).isFalse();
        // an API-only setup names its audience, or * for any token of the issuer
        assertThatThrownBy(
                        () -> bind("ax.oidc", OidcSettings.class, Map.of("ax.oidc.issuer-uri", "https://idp.example")))
                .rootCause()
                .hasMessageContaining("ax.oidc.audiences");
        assertThat(bind(
                                "ax.oidc",
                                OidcSettings.class,
                                Map.of("ax.oidc.issuer-uri", "https://idp.example", "ax.oidc.audiences", "*"))
                        .takes(List.of("anyone"), null))
                .isTrue();
        // a confidential client without its secret fails every sign-in: refused at start
        assertThatThrownBy(() -> bind(
                        "ax.oidc",
                        OidcSettings.class,
                        Map.of("ax.oidc.issuer-uri", "https://idp.example", "ax.oidc.client-id", "ax")))
                .rootCause()
                .hasMessageContaining("ax.oidc.client-secret");
        assertThatThrownBy(() -> bind("ax.oidc", OidcSettings.class, Map.of("ax.oidc.discovery-retry", "-1s")))
                .rootCause()
                .hasMessageContaining("ax.oidc.discovery-retry");
        assertThatThrownBy(() -> bind("ax.oidc", OidcSettings.class, Map.of("ax.oidc.session-max", "0s")))
                .rootCause()
                .hasMessageContaining("ax.oidc.session-max");
        assertThat(bind("ax.bootstrap", BootstrapSettings.class, Map.of())).isEqualTo(new BootstrapSettings("", ""));

        assertThatThrownBy(() -> bind(
                        "ax.security", SecuritySettings.class, Map.of("ax.security.login.max-failures-per-user", "0")))
                .rootCause()
                .hasMessageContaining("ax.security.login.max-failures-per-user");
        assertThatThrownBy(() -> bind("ax.oidc", OidcSettings.class, Map.of("ax.oidc.client-id", "ax")))
                .rootCause()
                .hasMessageContaining("ax.oidc.issuer-uri");
        assertThatThrownBy(
                        () -> bind("ax.bootstrap", BootstrapSettings.class, Map.of("ax.bootstrap.admin-key", "short")))
                .rootCause()
                .hasMessageContaining("AX_BOOTSTRAP_ADMIN_KEY");
    }
}
