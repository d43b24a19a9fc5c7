package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The console's form login: session cookie, CSRF tokens, logout, and the lock after failed logins. */
class ConsoleLoginIT {

    static Node node;

    @BeforeAll
    static void start() {
        // behind a proxy that ends TLS: its X-Forwarded-Proto is trusted (from 127.0.0.1)
        node = Node.start(
                TestDatabase.freshDatabase("console_login"),
                "console",
                java.util.Map.of("server.forward-headers-strategy", "native"));
        Api.Response made = node.api.post(
                "/api/v1/admin/users",
                "{\"username\":\"carol\",\"password\":\"carol-password-1\","
                        + "\"grants\":[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** A browser: keeps cookies, does not follow redirects. */
    static final class Browser {
        final CookieManager cookies = new CookieManager();
        final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        HttpResponse<String> get(String path) throws Exception {
            return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> postForm(String path, String form) throws Exception {
            return send(formPost(path, form));
        }

        /** A form post as a browser sends it from a page of the given site ({@code Sec-Fetch-Site}). */
        HttpResponse<String> postForm(String path, String form, String fromSite) throws Exception {
            return send(formPost(path, form).header("Sec-Fetch-Site", fromSite));
        }

        private HttpRequest.Builder formPost(String path, String form) {
            return HttpRequest.newBuilder(uri(path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form));
        }

        HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        String csrf(String path) throws Exception {
            Matcher m = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"")
                    .matcher(get(path).body());
            assertThat(m.find()).as("a CSRF token on " + path).isTrue();
            return m.group(1);
        }

        HttpResponse<String> login(String user, String password) throws Exception {
            return postForm(
                    "/login", "username=" + enc(user) + "&password=" + enc(password) + "&_csrf=" + enc(csrf("/login")));
        }
    }

    static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + node.api.port + path);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void a_user_logs_in_with_the_form_and_out_and_cross_site_posts_are_refused() throws Exception {
        Browser browser = new Browser();
        HttpResponse<String> console = browser.get("/console");
        assertThat(console.statusCode()).isEqualTo(302);
        assertThat(console.headers().firstValue("Location").orElse("")).endsWith("/login");
        assertThat(browser.get("/login").headers().firstValue("X-Frame-Options"))
                .hasValue("DENY");

        HttpResponse<String> loggedIn = browser.login("carol", "carol-password-1");
        assertThat(loggedIn.statusCode()).isEqualTo(302);
        assertThat(loggedIn.headers().firstValue("Location").orElse("")).doesNotContain("error");

        // a page on another origin can make the browser post with its cookie, but not with the CSRF token
        assertThat(browser.postForm("/logout", "").statusCode()).isEqualTo(403);
        assertThat(browser.postForm("/console/jobs/x/cancel", "").statusCode()).isEqualTo(403);
        assertThat(browser.get("/console").statusCode()).as("still logged in").isNotEqualTo(302);

        HttpResponse<String> out = browser.postForm("/logout", "_csrf=" + enc(browser.csrf("/console")));
        assertThat(out.statusCode()).isEqualTo(302);
        assertThat(out.headers().firstValue("Location").orElse("")).endsWith("/login?logout");
        assertThat(browser.get("/login?logout").body()).contains("Signed out.");
        assertThat(browser.get("/console").statusCode()).isEqualTo(302);
    }

    @Test
    void a_user_signed_in_as_typed_acts_under_the_accounts_own_name() throws Exception {
        Browser browser = new Browser();
        // the database matches the name ignoring case and trailing spaces
        HttpResponse<String> loggedIn = browser.login("CaRoL  ", "carol-password-1");
        assertThat(loggedIn.headers().firstValue("Location").orElse("")).doesNotContain("error");
        String page = browser.get("/console").body();
        assertThat(page).contains("user:carol").doesNotContain("user:CaRoL");
    }

    @Test
    void a_visitor_not_signed_in_leaves_no_session_and_is_sent_back_only_within_this_server() throws Exception {
        Integer before = node.jdbc().queryForObject("SELECT COUNT(*) FROM SPRING_SESSION", Integer.class);
        Browser browser = new Browser();
        HttpResponse<String> asked = browser.get("/console/jobs?status=FAILED");
        assertThat(asked.statusCode()).isEqualTo(302);
        assertThat(browser.get("/login").statusCode()).isEqualTo(200);
        HttpResponse<String> failed = browser.login("carol", "not-her-password");
        assertThat(failed.headers().firstValue("Location").orElse("")).endsWith("/login?error");
        assertThat(browser.get("/login?error").statusCode()).isEqualTo(200);
        // the token and the page to go back to are cookies; a session (a row) is made at sign-in and not before
        assertThat(browser.cookies.getCookieStore().getCookies())
                .extracting(HttpCookie::getName)
                .contains("AX_CSRF", "AX_RETURN_TO")
                .doesNotContain("SESSION");
        assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM SPRING_SESSION", Integer.class))
                .isEqualTo(before);

        HttpResponse<String> signedIn = browser.login("carol", "carol-password-1");
        assertThat(signedIn.headers().firstValue("Location").orElse("")).endsWith("/console/jobs?status=FAILED");
        assertThat(browser.cookies.getCookieStore().getCookies())
                .extracting(HttpCookie::getName)
                .contains("SESSION");
        assertThat(browser.get("/console/jobs?status=FAILED").statusCode()).isEqualTo(200);
        assertThat(browser.cookies.getCookieStore().getCookies())
                .extracting(HttpCookie::getName)
                .as("the page reached, its return path is spent")
                .doesNotContain("AX_RETURN_TO");

        // a return path someone else set (another site's page on a shared parent domain, say) is followed only to a
        // path of this server
        for (String planted : new String[] {"//evil.example/x", "/\\evil.example", "https://evil.example/"}) {
            Browser other = new Browser();
            HttpCookie cookie = new HttpCookie(
                    "AX_RETURN_TO",
                    java.util.Base64.getUrlEncoder()
                            .withoutPadding()
                            .encodeToString(planted.getBytes(StandardCharsets.UTF_8)));
            cookie.setPath("/");
            cookie.setVersion(0);
            other.cookies.getCookieStore().add(uri("/"), cookie);
            String location = other.login("carol", "carol-password-1")
                    .headers()
                    .firstValue("Location")
                    .orElse("");
            assertThat(location).as(planted).matches("(http://127\\.0\\.0\\.1:\\d+)?/(?![/\\\\]).*");
            assertThat(location).as(planted).doesNotContain("evil").doesNotContain("..");
        }
    }

    @Test
    void after_sign_in_only_the_sessions_own_csrf_token_holds() throws Exception {
        Browser browser = new Browser();
        String before = browser.csrf("/login");
        String cookieBefore = cookie(browser, "AX_CSRF");
        assertThat(cookieBefore).isNotNull();
        assertThat(browser.login("carol", "carol-password-1")
                        .headers()
                        .firstValue("Location")
                        .orElse(""))
                .doesNotContain("error");
        assertThat(cookie(browser, "AX_CSRF")).as("spent at sign-in").isNull();

        // a cookie and a token of someone else's making (a page on a sibling host of a shared parent domain can set
        // such a cookie): a double-submit cookie alone would take them
        String planted = java.util.UUID.randomUUID().toString();
        plant(browser, planted);
        byte[] token = planted.getBytes(StandardCharsets.UTF_8);
        byte[] masked = new byte[token.length * 2]; // zero mask, then the token xor zero
        System.arraycopy(token, 0, masked, token.length, token.length);
        assertThat(browser.postForm(
                                "/logout",
                                "_csrf=" + enc(java.util.Base64.getUrlEncoder().encodeToString(masked)))
                        .statusCode())
                .isEqualTo(403);
        // the token of before sign-in, its cookie put back
        plant(browser, cookieBefore);
        assertThat(browser.postForm("/logout", "_csrf=" + enc(before)).statusCode())
                .isEqualTo(403);
        assertThat(browser.get("/console").statusCode()).as("still signed in").isEqualTo(200);

        HttpResponse<String> out = browser.postForm("/logout", "_csrf=" + enc(browser.csrf("/console")));
        assertThat(out.headers().firstValue("Location").orElse("")).endsWith("/login?logout");
    }

    private static String cookie(Browser browser, String name) {
        return browser.cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse(null);
    }

    private static void plant(Browser browser, String csrfCookie) {
        HttpCookie cookie = new HttpCookie("AX_CSRF", csrfCookie);
        cookie.setPath("/");
        cookie.setVersion(0);
        browser.cookies.getCookieStore().add(uri("/"), cookie);
    }

    @Test
    void a_sign_in_or_a_write_posted_by_a_page_of_a_sibling_host_is_refused() throws Exception {
        // a page on a sibling host fetches a sign-in cookie and form token of its own, plants the cookie in the
        // visitor's browser (a cookie for the shared parent domain) and posts the form with its own account
        Browser attacker = new Browser();
        String token = attacker.csrf("/login");
        String cookie = cookie(attacker, "AX_CSRF");
        Browser visitor = new Browser();
        plant(visitor, cookie);
        String form = "username=carol&password=carol-password-1&_csrf=" + enc(token);
        HttpResponse<String> refused = visitor.postForm("/login", form, "same-site");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.body()).contains("Sec-Fetch-Site: same-site");
        assertThat(cookie(visitor, "SESSION")).as("not signed in").isNull();
        assertThat(visitor.get("/console").statusCode()).isEqualTo(302);

        // the same post with credentials of another scheme: the console takes none from a header, so it passes nothing
        HttpResponse<String> withBasic = visitor.send(visitor.formPost("/login", form)
                .header("Sec-Fetch-Site", "same-site")
                .header("Authorization", "Basic Y2Fyb2w6eA=="));
        assertThat(withBasic.statusCode()).isEqualTo(403);
        // over plain HTTP a browser sends no Sec-Fetch-Site, but the page's Origin with every post
        HttpResponse<String> byOrigin =
                visitor.send(visitor.formPost("/login", form).header("Origin", "http://evil.example.com"));
        assertThat(byOrigin.statusCode()).isEqualTo(403);
        assertThat(byOrigin.body()).contains("Origin: http://evil.example.com");
        assertThat(cookie(visitor, "SESSION")).as("not signed in").isNull();

        // the same pair posted from this server's own page signs in: it was the page's origin that was refused
        HttpResponse<String> signedIn =
                visitor.send(visitor.formPost("/login", form).header("Origin", "http://127.0.0.1:" + node.api.port));
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location").orElse("")).doesNotContain("error");

        // signed in, a write from another site is refused even with the session's own token, on the console and on
        // the API the console's pages call
        String own = visitor.csrf("/console");
        HttpResponse<String> consoleWrite = visitor.postForm("/logout", "_csrf=" + enc(own), "cross-site");
        assertThat(consoleWrite.statusCode()).isEqualTo(403);
        assertThat(consoleWrite.body()).contains("Sec-Fetch-Site: cross-site");
        HttpResponse<String> apiWrite = visitor.send(HttpRequest.newBuilder(uri("/api/v1/cron/validate"))
                .header("Content-Type", "application/json")
                .header("X-CSRF-TOKEN", own)
                .header("Sec-Fetch-Site", "same-site")
                .POST(HttpRequest.BodyPublishers.ofString("{\"expression\":\"0 * * * * ?\"}")));
        assertThat(apiWrite.statusCode()).as(apiWrite.body()).isEqualTo(403);
        assertThat(apiWrite.body()).contains("Sec-Fetch-Site: same-site");
        assertThat(visitor.get("/console").statusCode()).as("still signed in").isEqualTo(200);

        // an API client with its own credentials may call from a page of another origin (CORS decides what it reads)
        HttpResponse<String> bearer = new Browser()
                .send(HttpRequest.newBuilder(uri("/api/v1/cron/validate"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + node.api.key)
                        .header("Sec-Fetch-Site", "cross-site")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"expression\":\"0 * * * * ?\"}")));
        assertThat(bearer.statusCode()).as(bearer.body()).isEqualTo(200);

        HttpResponse<String> out = visitor.postForm("/logout", "_csrf=" + enc(own), "same-origin");
        assertThat(out.headers().firstValue("Location").orElse("")).endsWith("/login?logout");
    }

    @Test
    void over_https_the_session_cookie_is_one_no_other_host_can_set() throws Exception {
        // a browser on HTTPS, through a proxy that ends TLS; the JDK's cookie store keeps Secure cookies from plain
        // http:// URIs, so this one keeps them by hand
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpResponse<String> page = http.send(
                HttpRequest.newBuilder(uri("/login"))
                        .header("X-Forwarded-Proto", "https")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher token = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(page.body());
        assertThat(token.find()).isTrue();
        String csrfCookie = setCookie(page, "AX_CSRF").split(";")[0];
        HttpResponse<String> signIn = http.send(
                HttpRequest.newBuilder(uri("/login"))
                        .header("X-Forwarded-Proto", "https")
                        .header("Sec-Fetch-Site", "same-origin")
                        .header("Cookie", csrfCookie)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "username=carol&password=carol-password-1&_csrf=" + enc(token.group(1))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signIn.statusCode()).isEqualTo(302);
        String session = setCookie(signIn, "__Host-SESSION");
        assertThat(session)
                .contains("; Path=/;")
                .contains("; Secure")
                .contains("; HttpOnly")
                .doesNotContain("Domain");
        assertThat(signIn.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("SESSION="));
        assertThat(consoleStatus(http, session.split(";")[0], "https"))
                .as("signed in")
                .isEqualTo(200);

        // a session of someone else's, signed in over plain HTTP: planted as SESSION for the parent domain, it is no
        // session on HTTPS (while on plain HTTP it is one, as ever)
        Browser other = new Browser();
        other.login("carol", "carol-password-1");
        String planted = "SESSION=" + cookie(other, "SESSION");
        assertThat(consoleStatus(http, planted, "http")).isEqualTo(200);
        assertThat(consoleStatus(http, planted, "https")).as("not signed in").isEqualTo(302);
    }

    private static String setCookie(HttpResponse<String> response, String name) {
        return response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(name + "="))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " cookie in " + response.headers()));
    }

    private static int consoleStatus(HttpClient http, String cookie, String scheme) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(uri("/console"))
                                .header("X-Forwarded-Proto", scheme)
                                .header("Cookie", cookie)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    @Test
    void a_login_without_its_csrf_token_is_refused() throws Exception {
        Browser browser = new Browser();
        browser.get("/login");
        HttpResponse<String> r = browser.postForm("/login", "username=carol&password=carol-password-1");
        assertThat(r.statusCode()).isEqualTo(403);
    }

    @Test
    void failed_logins_lock_the_user_for_a_while() throws Exception {
        node.api.post(
                "/api/v1/admin/users",
                "{\"username\":\"dave\",\"password\":\"dave-password-12\","
                        + "\"grants\":[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]}");
        Browser browser = new Browser();
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
                new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        ch.qos.logback.classic.Logger login = (ch.qos.logback.classic.Logger)
                org.slf4j.LoggerFactory.getLogger("io.axscheduler.deploy.security.ConsoleLogin");
        login.addAppender(logged);
        try {
            for (int i = 0; i < 5; i++) {
                assertThat(browser.login("dave", "wrong-" + i)
                                .headers()
                                .firstValue("Location")
                                .orElse(""))
                        .contains("error");
            }
            assertThat(browser.login("dave", "dave-password-12")
                            .headers()
                            .firstValue("Location")
                            .orElse(""))
                    .as("locked even with the right password")
                    .contains("error");
        } finally {
            login.detachAppender(logged);
        }
        // the answer never says why; the log does, for whoever watches for guessing
        List<String> lines = logged.list.stream()
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("user 'dave'"))
                .toList();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).contains("sign-in refused").contains("wrong password");
        assertThat(lines.get(4)).contains("wrong password; the user is now locked");
        assertThat(lines.get(5)).contains("the user is locked after too many failed sign-ins");
        // the page says what a user may do, in the console's language, and never which names exist
        assertThat(browser.get("/login?error").body()).contains("Wrong user name or password, or too many");
        assertThat(browser.get("/login?error&lang=zh-CN").body()).contains("用户名或密码错误");
    }
}
