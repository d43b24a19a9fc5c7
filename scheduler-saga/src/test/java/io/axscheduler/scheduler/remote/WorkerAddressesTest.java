package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkerAddressesTest {

    private final WorkerAddresses loopbackAllowed =
            new WorkerAddresses(new WorkerAddressProperties(java.util.List.of("127.0.0.1/32", " localhost")));

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://127.0.0.1:9999/internal/admin?cmd=wipe#",
                "http://127.0.0.1:9999/x#",
                "http://127.0.0.1:9999/?",
                "http://admin:pw@127.0.0.1:9999",
                "http://127.0.0.1@169.254.169.254",
                "http://169.254.169.254",
                "http://[::1]:9999",
                "http://2130706433:9999",
                "http://0x7f.0.0.1:9999",
                "http://10.0.0.1:9999",
                "ftp://127.0.0.1:9999",
                "127.0.0.1:9999"
            })
    void refuses(String address) {
        assertThat(loopbackAllowed.refusal(address)).as(address).isPresent();
    }

    @Test
    void a_bad_entry_fails_at_binding_naming_the_setting() {
        // at binding, so the start fails with Spring Boot's summary naming the setting rather than a bean's trace
        for (String bad : java.util.List.of("not a cidr/99", "10.0.0.0/33", "exa mple.com")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> new WorkerAddressProperties(java.util.List.of("127.0.0.1/32", bad)))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("ax.workers.allowed-addresses: ")
                    .hasMessageContaining(bad);
        }
    }

    @Test
    void a_host_java_cannot_read_is_named_with_how_to_write_it() {
        assertThat(loopbackAllowed.refusal("http://127.1:9001"))
                .contains("has no host Java can read in '127.1:9001': write a host name, an IPv4 address as a.b.c.d"
                        + " or an IPv6 one in brackets");
        assertThat(loopbackAllowed.refusal("ftp://127.0.0.1:9999")).contains("must be an http(s) base URL");
    }

    @Test
    void admits_a_base_url_inside_the_allowed_range() {
        assertThat(loopbackAllowed.refusal("http://127.0.0.1:9001")).isEmpty();
        assertThat(loopbackAllowed.refusal("http://127.0.0.1:9001/worker-a")).isEmpty();
    }

    @Test
    void admits_nothing_by_default() {
        assertThat(new WorkerAddresses(new WorkerAddressProperties(null)).refusal("http://127.0.0.1:9001"))
                .isPresent();
    }
}
