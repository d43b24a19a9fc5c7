package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Console sign-ins are kept in the database: a user signed in on one node is signed in on the other (no sticky
 * sessions behind a load balancer), a restart signs no one out, signing out on one node signs out of both, and a
 * deleted user's session ends at its next request on any node.
 */
class ConsoleSessionsIT {

    static String db;
    static Node a;
    static Node b;

    @BeforeAll
    static void start() {
        db = TestDatabase.freshDatabase("console_sessions");
        a = Node.start(db, "node-a");
        b = Node.start(db, "node-b");
    }

    @AfterAll
    static void stop() {
        if (a != null) a.close();
        if (b != null) b.close();
    }

    /** A browser on 127.0.0.1: one cookie jar for every port (cookies do not tell ports apart), no redirects. */
    static final class Browser {
        final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        /** The Accept header sent, when set: a real browser's asks for HTML first. */
        String accept;

        Browser accepting(String accept) {
            this.accept = accept;
            return this;
        }

        private HttpRequest.Builder request(Node node, String path) {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri(node, path));
            return accept == null ? request : request.header("Accept", accept);
        }

        HttpResponse<String> get(Node node, String path) throws Exception {
            return http.send(request(node, path).GET().build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> postForm(Node node, String path, String form) throws Exception {
            return http.send(
                    request(node, path)
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(form))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        String csrf(Node node, String path) throws Exception {
            Matcher m = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"")
                    .matcher(get(node, path).body());
            assertThat(m.find()).as("a CSRF token on " + path).isTrue();
            return m.group(1);
        }

        /** A new console user {@code name} (password {@code <name>-password-1}) with one grant, signed in here. */
        static Browser signedInAs(Node node, String name, String namespace, String role) throws Exception {
            Api.Response made = node.api.post(
                    "/api/v1/admin/users",
                    "{\"username\":\"" + name + "\",\"password\":\"" + name + "-password-1\","
                            + "\"grants\":[{\"namespace\":\"" + namespace + "\",\"role\":\"" + role + "\"}]}");
            assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
            Browser browser = new Browser();
            browser.signIn(node, name, name + "-password-1");
            return browser;
        }

        /** Signs in; the answer is the redirect to where the browser goes next. */
        HttpResponse<String> signIn(Node node, String user, String password) throws Exception {
            HttpResponse<String> r = postForm(
                    node,
                    "/login",
                    "username=" + enc(user) + "&password=" + enc(password) + "&_csrf=" + enc(csrf(node, "/login")));
            assertThat(r.statusCode()).isEqualTo(302);
            assertThat(r.headers().firstValue("Location").orElse("")).doesNotContain("error");
            return r;
        }

        boolean signedInAt(Node node) throws Exception {
            int status = get(node, "/console").statusCode();
            assertThat(status).isIn(200, 302);
            return status == 200;
        }
    }

    static URI uri(Node node, String path) {
        return URI.create("http://127.0.0.1:" + node.api.port + path);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static void makeUser(String name, String namespace) {
        makeUser(name, namespace, "VIEWER");
    }

    static void makeUser(String name, String namespace, String role) {
        Api.Response made = a.api.post(
                "/api/v1/admin/users",
                "{\"username\":\"" + name + "\",\"password\":\"" + name + "-password-1\","
                        + "\"grants\":[{\"namespace\":\"" + namespace + "\",\"role\":\"" + role + "\"}]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
    }

    static void deleteUser(String name) throws Exception {
        HttpResponse<String> deleted = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(uri(b, "/api/v1/admin/users/" + name))
                                .header("Authorization", "Bearer " + Api.ADMIN_KEY)
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
    }

    @Test
    void a_sign_in_on_one_node_holds_on_the_other_and_signing_out_there_ends_it_on_both() throws Exception {
        makeUser("erin", "default");
        Browser browser = new Browser();
        assertThat(browser.signedInAt(b)).isFalse();
        // signed in, the browser goes back to the page it asked for, as it asked for it
        assertThat(browser.get(a, "/console/workers").statusCode()).isEqualTo(302);
        assertThat(browser.signIn(a, "erin", "erin-password-1").headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/console/workers"));
        assertThat(browser.signedInAt(a)).isTrue();
        // a viewer's job list offers no selection: there is nothing it may do with one
        String jobs = browser.get(a, "/console/jobs").body();
        assertThat(jobs).contains("data-testid=\"job-list\"").doesNotContain("select-all", "bulk-retry", "job-select");
        assertThat(browser.signedInAt(b))
                .as("the session made on node a, at node b")
                .isTrue();
        // the console's own calls of the API ride on the session, with the CSRF token a page of the other node gave
        assertThat(browser.get(b, "/api/v1/jobs?namespace=default").statusCode())
                .isEqualTo(200);

        HttpResponse<String> out = browser.postForm(b, "/logout", "_csrf=" + enc(browser.csrf(a, "/console")));
        assertThat(out.statusCode()).isEqualTo(302);
        assertThat(browser.signedInAt(a)).as("signed out on node b, at node a").isFalse();
        assertThat(browser.signedInAt(b)).isFalse();
    }

    @Test
    void what_a_user_may_not_see_or_do_is_a_console_page_saying_so_not_raw_json() throws Exception {
        makeUser("gil", "team-g");
        Browser browser = new Browser();
        browser.signIn(a, "gil", "gil-password-1");
        String hidden = a.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}"); // in default, not team-g
        for (String[] ask : new String[][] {
            {"/console/jobs/" + hidden, "404", "Not found"},
            {"/console/jobs/no-such-job", "404", "Not found"},
            {"/console/schedules/new", "403", "Not allowed"},
            // a list asked for past its limit (the API's own limit is larger)
            {"/console/jobs?size=500", "400", "size: must be a whole number from 1 to 200"},
            {"/console/jobs?from=yesterday", "400", "Bad request"},
            // the language chosen stays with the session: last
            {"/console/jobs/no-such-job?lang=zh-CN", "404", "未找到"}
        }) {
            HttpResponse<String> page = browser.get(a, ask[0]);
            assertThat(page.statusCode()).as(ask[0]).isEqualTo(Integer.parseInt(ask[1]));
            assertThat(page.headers().firstValue("Content-Type").orElse(""))
                    .as(ask[0])
                    .startsWith("text/html");
            assertThat(page.body()).as(ask[0]).contains("data-testid=\"error-title\"", ask[2], "/logout");
        }
        // the API answers as ever
        assertThat(browser.get(a, "/api/v1/jobs/" + hidden).headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    }

    @Test
    void a_teams_editor_starts_a_new_schedule_in_the_teams_namespace() throws Exception {
        Browser editor = Browser.signedInAs(a, "hana", "team-h", "EDITOR");
        HttpResponse<String> form = editor.get(a, "/console/schedules/new");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).containsPattern("data-testid=\"schedule-namespace\"[^>]*value=\"team-h\"");
        Browser admin = new Browser();
        admin.signIn(a, "admin", Node.ADMIN_PASSWORD);
        assertThat(admin.get(a, "/console/schedules/new").body())
                .containsPattern("data-testid=\"schedule-namespace\"[^>]*value=\"default\"");
    }

    @Test
    void pause_and_resume_from_the_console_hold_whichever_node_takes_them() throws Exception {
        makeUser("olga", "default", "OPERATOR");
        String id = ScheduleHttp.create(a.api, """
                {"name":"console-pause","trigger":{"type":"fixedRate","intervalMs":60000},"job":{"jobType":"noop"}}""");
        Browser browser = new Browser();
        browser.signIn(a, "olga", "olga-password-1");
        String page = "/console/schedules/" + id;
        // the API on the session: a write without the session's CSRF token is told so, not that its role falls short
        HttpResponse<String> noToken = browser.postForm(a, "/api/v1/schedules/" + id + "/pause", "");
        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(noToken.body()).contains("CSRF token", "\"instance\":\"/api/v1/schedules/" + id + "/pause\"");
        // a bad instant asked of a page is said on the page (it was a raw problem+json document)
        HttpResponse<String> badAt = browser.get(b, page + "?at=yesterday");
        assertThat(badAt.statusCode()).isEqualTo(200);
        assertThat(badAt.body()).contains("data-testid=\"why-at-error\"", "must be an ISO-8601 instant");
        String job = a.api.submit("{\"jobType\":\"noop\"}");
        HttpResponse<String> beforeJob = browser.get(b, "/console/jobs/" + job + "?asOf=1900-01-01T00:00:00Z");
        assertThat(beforeJob.statusCode()).isEqualTo(200);
        assertThat(beforeJob.body()).contains("data-testid=\"asof-error\"");
        // an OPERATOR pauses and resumes, and is not offered the forms it may not save
        assertThat(browser.get(b, page + "/edit").statusCode()).isEqualTo(403);
        assertThat(browser.get(b, "/console/schedules/new").statusCode()).isEqualTo(403);
        // node-a pauses it (and caches it paused), node-b resumes it, node-a is asked to pause it again
        for (Node node : List.of(a, b, a)) {
            String action = node == b ? "resume" : "pause";
            HttpResponse<String> r =
                    browser.postForm(node, page + "/" + action, "_csrf=" + enc(browser.csrf(node, page)));
            assertThat(r.statusCode()).isEqualTo(302);
            String expected = action.equals("pause") ? "PAUSED" : "ACTIVE";
            assertThat(b.api.get("/api/v1/schedules/" + id).text("state"))
                    .as("after " + action + " on " + node.id)
                    .isEqualTo(expected);
            // a paused schedule's next fire time is said not to come until it is resumed, on its page and the list
            for (String shown : List.of(page, "/console/schedules?name=console-pause")) {
                assertThat(browser.get(node, shown).body().contains("paused: not until resumed"))
                        .as(shown + " after " + action)
                        .isEqualTo(expected.equals("PAUSED"));
            }
        }
    }

    @Test
    void a_deleted_users_open_stream_ends_within_its_recheck() throws Exception {
        makeUser("ned", "default");
        Browser browser = new Browser();
        browser.signIn(a, "ned", "ned-password-1");
        HttpResponse<java.util.stream.Stream<String>> stream = browser.http.send(
                HttpRequest.newBuilder(uri(b, "/api/v1/stream")).GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        CompletableFuture<Long> ended =
                CompletableFuture.supplyAsync(() -> stream.body().count());

        deleteUser("ned");
        // recheck-ms is 5 s by default: the stream ends then, not at its 30-minute timeout
        assertThat(ended.get(20, TimeUnit.SECONDS))
                .as("lines read before the end")
                .isPositive();
        assertThat(browser.get(b, "/api/v1/stream").statusCode())
                .as("the reconnect")
                .isEqualTo(401);
    }

    @Test
    void a_restart_of_the_node_signs_no_one_out() throws Exception {
        makeUser("frank", "default");
        Browser browser = new Browser();
        browser.signIn(b, "frank", "frank-password-1");
        a.close();
        a = Node.start(db, "node-a");
        assertThat(browser.signedInAt(a)).as("after node a restarted").isTrue();
        Integer rows = a.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM SPRING_SESSION WHERE PRINCIPAL_NAME = 'user:frank'", Integer.class);
        assertThat(rows).isEqualTo(1);
    }

    @Test
    void a_deleted_users_session_ends_at_its_next_request_on_any_node() throws Exception {
        makeUser("gina", "default");
        Browser browser = new Browser();
        browser.signIn(a, "gina", "gina-password-1");
        assertThat(browser.get(b, "/api/v1/jobs?namespace=default").statusCode())
                .isEqualTo(200);

        deleteUser("gina");
        assertThat(browser.get(b, "/api/v1/jobs?namespace=default").statusCode())
                .as("the API on the deleted user's session")
                .isEqualTo(401);
        assertThat(browser.signedInAt(a)).isFalse();
        Integer rows = a.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM SPRING_SESSION WHERE PRINCIPAL_NAME = 'user:gina'", Integer.class);
        assertThat(rows).as("the session's row").isZero();
    }

    @Test
    void a_user_deleted_and_made_again_is_another_account_whose_old_sessions_end() throws Exception {
        makeUser("hal", "default");
        makeUser("ivy", "default");
        Browser browser = new Browser();
        browser.signIn(a, "hal", "hal-password-1");
        assertThat(browser.signedInAt(b)).isTrue();

        deleteUser("hal");
        makeUser("hal", "other");
        assertThat(browser.signedInAt(b)).as("the first account's session").isFalse();

        String job = a.api.submit("{\"jobType\":\"count\"}");
        assertThat(browser.get(a, "/api/v1/jobs?namespace=default").statusCode())
                .isEqualTo(401);
        Browser again = new Browser();
        again.signIn(b, "hal", "hal-password-1");
        HttpResponse<String> seen = again.get(a, "/api/v1/jobs?namespace=default");
        assertThat(seen.statusCode()).isEqualTo(200);
        assertThat(seen.body()).as("the new account sees only namespace other").doesNotContain(job);
        Browser viewer = new Browser();
        viewer.signIn(a, "ivy", "ivy-password-1");
        assertThat(viewer.get(b, "/api/v1/jobs?namespace=default").body())
                .as("a viewer of default sees it")
                .contains(job);
    }
}
