package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class OutagePageTest {

    private static final String BROWSER = "text/html,application/xhtml+xml,*/*;q=0.8";

    private static MockHttpServletRequest request(String method, String context, String path, String accept) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, context + path);
        request.setContextPath(context);
        if (accept != null) request.addHeader("Accept", accept);
        return request;
    }

    @Test
    void a_browser_on_the_console_or_signing_in_or_out_gets_the_page_and_everything_else_json() {
        for (String path :
                new String[] {"/console", "/console/jobs/x", "/login", "/login/oauth2/code/corp", "/logout"}) {
            assertThat(OutagePage.wanted(request("GET", "", path, BROWSER)))
                    .as(path)
                    .isTrue();
            assertThat(OutagePage.wanted(request("GET", "/ax", path, BROWSER)))
                    .as("/ax" + path)
                    .isTrue();
        }
        for (String path : new String[] {"/consoleX", "/api/v1/jobs", "/actuator/prometheus", "/loginx"}) {
            assertThat(OutagePage.wanted(request("GET", "", path, BROWSER)))
                    .as(path)
                    .isFalse();
        }
        // htmx and the console's own fetches accept anything; an API client with a token keeps its JSON
        assertThat(OutagePage.wanted(request("GET", "", "/console/jobs", "*/*")))
                .isFalse();
        assertThat(OutagePage.wanted(request("GET", "", "/console/jobs", null))).isFalse();
        MockHttpServletRequest bearer = request("GET", "", "/console/jobs", BROWSER);
        bearer.addHeader("Authorization", "Bearer k");
        assertThat(OutagePage.wanted(bearer)).isFalse();
    }

    @Test
    void the_page_is_a_503_that_reloads_a_get_and_links_under_the_context_path() throws Exception {
        MockHttpServletResponse get = new MockHttpServletResponse();
        OutagePage.write(request("GET", "/ax", "/console/jobs", BROWSER), get);
        assertThat(get.getStatus()).isEqualTo(503);
        assertThat(get.getHeader("Retry-After")).isEqualTo(String.valueOf(ProblemHandlers.RETRY_AFTER_S));
        assertThat(get.getContentType()).startsWith("text/html").contains("UTF-8");
        assertThat(get.getContentAsString()).contains("http-equiv=\"refresh\"", "href=\"/ax/console\"");

        MockHttpServletResponse post = new MockHttpServletResponse();
        OutagePage.write(request("POST", "", "/login", BROWSER), post);
        assertThat(post.getContentAsString()).doesNotContain("refresh").contains("send it again");
    }

    @Test
    void a_console_handler_that_loses_the_database_answers_a_browser_with_the_page_and_a_client_with_json()
            throws Exception {
        ProblemHandlers handlers = new ProblemHandlers();
        Exception lost = new org.springframework.jdbc.CannotGetJdbcConnectionException("pool timed out");

        MockHttpServletResponse page = new MockHttpServletResponse();
        assertThat(handlers.unexpected(lost, request("GET", "", "/console/jobs", BROWSER), page))
                .isNull();
        assertThat(page.getStatus()).isEqualTo(503);
        assertThat(page.getContentType()).startsWith("text/html");
        assertThat(page.getContentAsString()).contains("The database is unreachable");

        MockHttpServletResponse untouched = new MockHttpServletResponse();
        var json = handlers.unexpected(lost, request("GET", "", "/api/v1/jobs", "application/json"), untouched);
        assertThat(json.getStatusCode().value()).isEqualTo(503);
        assertThat(json.getHeaders().getFirst("Retry-After")).isEqualTo(String.valueOf(ProblemHandlers.RETRY_AFTER_S));
        assertThat(untouched.getContentAsString()).isEmpty();
    }

    @Test
    void a_page_whose_rendering_took_the_writer_still_gets_the_503_page() throws Exception {
        // as a servlet container does: once the writer is taken, the stream is refused
        MockHttpServletResponse response = new MockHttpServletResponse() {
            boolean writerTaken;

            @Override
            public PrintWriter getWriter() throws java.io.UnsupportedEncodingException {
                writerTaken = true;
                return super.getWriter();
            }

            @Override
            public jakarta.servlet.ServletOutputStream getOutputStream() {
                if (writerTaken) throw new IllegalStateException("getWriter() has already been called");
                return super.getOutputStream();
            }
        };
        PrintWriter writer = response.getWriter();
        writer.write("<html>half a page");
        OutagePage.write(request("GET", "", "/console", BROWSER), response);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getContentAsString()).startsWith("<!DOCTYPE html>");
    }
}
