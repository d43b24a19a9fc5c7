package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Failed console logins are limited per client address too, not only per user name. */
class LoginAddressLimitIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("login_address"),
                "login-address",
                Map.of(
                        "ax.security.login.max-failures-per-address", "3",
                        "ax.security.login.address-window-ms", "60000",
                        "ax.security.login.address-lock-ms", "4000"));
        for (String user : new String[] {"erin", "frank"}) {
            Api.Response made = node.api.post(
                    "/api/v1/admin/users",
                    "{\"username\":\"" + user + "\",\"password\":\"" + user + "-password-1\","
                            + "\"grants\":[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]}");
            assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        }
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** One login through the form, by a fresh browser; true when it signed in. */
    static boolean login(String user, String password) throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        URI login = URI.create("http://127.0.0.1:" + node.api.port + "/login");
        String page = http.send(HttpRequest.newBuilder(login).GET().build(), HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher csrf = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(page);
        assertThat(csrf.find()).isTrue();
        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(login)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("username=" + enc(user) + "&password=" + enc(password)
                                + "&_csrf=" + enc(csrf.group(1))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(302);
        return !answer.headers().firstValue("Location").orElse("").contains("error");
    }

    static boolean signsIn(String user, String password) {
        try {
            return login(user, password);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void failures_on_many_user_names_from_one_address_lock_that_address_for_a_while() throws Exception {
        assertThat(login("frank", "frank-password-1")).isTrue();
        // one failure per name: far below the per-user limit, but three from this address
        assertThat(login("erin", "not-her-password")).isFalse();
        assertThat(login("nobody", "guess-1")).isFalse();
        assertThat(login("somebody-else", "guess-2")).isFalse();

        assertThat(login("frank", "frank-password-1"))
                .as("the address is locked, whoever signs in from it")
                .isFalse();
        Integer rows = node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM login_address_failures WHERE address = '127.0.0.1' AND locked_until > 0",
                        Integer.class);
        assertThat(rows).isEqualTo(1);

        Await.until(Duration.ofSeconds(30), () -> signsIn("frank", "frank-password-1"), () -> "still locked");
    }
}
