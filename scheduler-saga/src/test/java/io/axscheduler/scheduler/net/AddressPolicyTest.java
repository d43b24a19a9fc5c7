package io.axscheduler.scheduler.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    /** Names resolve here without DNS, as an attacker's own zone would answer. */
    private static final Map<String, String> ZONE = Map.of(
            "public.example", "93.184.216.34",
            "metadata.example", "169.254.169.254",
            "internal.example", "10.1.2.3",
            "v6local.example", "::1",
            "mapped.example", "::ffff:127.0.0.1",
            "localhost", "127.0.0.1");

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String address = ZONE.get(host);
        if (address == null) throw new UnknownHostException(host);
        return new InetAddress[] {InetAddress.getByName(address)};
    }

    private static AddressPolicy policy(String... entries) {
        return AddressPolicy.of("test.setting", List.of(entries), AddressPolicyTest::resolve);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://127.0.0.1/",
                "http://127.1/",
                "http://2130706433/",
                "http://0x7f000001/",
                "http://0x7f.0.0.1/",
                "http://0177.0.0.1/",
                "http://017700000001/",
                "http://127.0.0.01/",
                "http://0/",
                "http://0.0.0.0/",
                "http://[::1]/",
                "http://[0:0:0:0:0:0:0:1]/",
                "http://[::]/",
                "http://[::ffff:127.0.0.1]/",
                "http://[::ffff:7f00:1]/",
                "http://[::127.0.0.1]/",
                "http://[fe80::1]/",
                "http://[fd00::1]/",
                "http://[64:ff9b::a9fe:a9fe]/",
                "http://[2002:a9fe:a9fe::]/",
                "http://169.254.169.254/latest/meta-data/",
                "http://[::ffff:169.254.169.254]/",
                "http://10.0.0.1/",
                "http://172.16.5.4/",
                "http://192.168.1.1/",
                "http://100.64.0.1/",
                "http://224.0.0.1/",
                "http://255.255.255.255/",
                "http://localhost/",
                "http://LOCALHOST./",
                "http://metadata.example/",
                "http://internal.example/",
                "http://v6local.example/",
                "http://mapped.example/",
                "http://user@public.example/",
                "http://user:pw@public.example/",
                "ftp://public.example/",
                "file:///etc/passwd"
            })
    void refuses_what_is_not_public_even_when_every_name_is_allowed(String url) {
        assertThatThrownBy(() -> policy("*").check(URI.create(url))).isInstanceOf(AddressPolicy.Refused.class);
    }

    @Test
    void allows_a_public_address_of_an_allowed_name() throws Exception {
        assertThat(policy("public.example").check(URI.create("https://public.example/x")))
                .containsExactly(InetAddress.getByName("93.184.216.34"));
        assertThat(policy("*.example").check(URI.create("https://public.example/x")))
                .hasSize(1);
    }

    @Test
    void refuses_a_name_not_on_the_list() {
        assertThatThrownBy(() -> policy("other.example").check(URI.create("http://public.example/")))
                .isInstanceOf(AddressPolicy.Refused.class)
                .hasMessageContaining("test.setting");
        assertThatThrownBy(() -> policy().check(URI.create("http://public.example/")))
                .isInstanceOf(AddressPolicy.Refused.class);
    }

    @Test
    void a_range_allows_the_addresses_in_it_and_no_other() throws Exception {
        AddressPolicy loopback = policy("localhost", "127.0.0.0/8", "::1");

        assertThatCode(() -> loopback.check(URI.create("http://localhost:8080/")))
                .doesNotThrowAnyException();
        assertThatCode(() -> loopback.check(URI.create("http://127.0.0.1:8080/")))
                .doesNotThrowAnyException();
        assertThatCode(() -> loopback.check(URI.create("http://[::1]:8080/"))).doesNotThrowAnyException();
        assertThatCode(() -> loopback.check(URI.create("http://[::ffff:127.0.0.1]/")))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> loopback.check(URI.create("http://169.254.169.254/")))
                .isInstanceOf(AddressPolicy.Refused.class);
        assertThatThrownBy(() -> loopback.check(URI.create("http://2130706433/")))
                .isInstanceOf(AddressPolicy.Refused.class);
        assertThatThrownBy(() -> policy("10.0.0.0/8").check(URI.create("http://internal.example/")))
                .as("a range admits addresses, not names")
                .isInstanceOf(AddressPolicy.Refused.class);
        assertThatCode(() -> policy("internal.example", "10.0.0.0/8").check(URI.create("http://internal.example/")))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"10.0.0.0/33", "not a host", "0x7f.1", "2130706433", "::1/200"})
    void a_bad_entry_fails_at_configuration(String entry) {
        assertThatThrownBy(() -> policy(entry)).isInstanceOf(IllegalArgumentException.class);
    }
}
