package io.axscheduler.deploy;

import io.axscheduler.api.problem.FieldError;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors that never reach a controller answer problem+json too, and name no Java class: those Spring forwards to
 * {@code /error} (a filter's or the servlet container's {@code sendError}), and those Tomcat answers itself before
 * any servlet runs (a path with bad UTF-8 or {@code %00}, a request line over its 8 KB), which its error valve would
 * write as an HTML page.
 */
@Configuration(proxyBeanMethods = false)
class ErrorResponses {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorValve() {
        return factory -> factory.addContextCustomizers(
                context -> ((StandardHost) context.getParent()).setErrorReportValveClass(ProblemValve.class.getName()));
    }

    @RestController
    static class ErrorEndpoint implements ErrorController {

        @RequestMapping("/error")
        ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
            Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
            HttpStatus status = code instanceof Integer c && HttpStatus.resolve(c) != null
                    ? HttpStatus.valueOf(c)
                    : HttpStatus.INTERNAL_SERVER_ERROR;
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail(status));
            problem.setTitle(status.getReasonPhrase());
            if (status == HttpStatus.BAD_REQUEST)
                problem.setProperty("errors", List.of(new FieldError("request", detail(status))));
            return ResponseEntity.status(status)
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem);
        }
    }

    static String detail(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> "the request could not be read (its path, query or headers are malformed)";
            case NOT_FOUND -> "no such resource";
            case URI_TOO_LONG, REQUEST_HEADER_FIELDS_TOO_LARGE -> "the request line or headers are too long";
            case PAYLOAD_TOO_LARGE -> "the request body is too large";
            default -> status.is5xxServerError() ? "the request failed inside the scheduler" : status.getReasonPhrase();
        };
    }

    /** Tomcat's error valve, writing problem+json instead of an HTML page. Public: Tomcat makes it by name. */
    public static class ProblemValve extends ErrorReportValve {

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int code = response.getStatus();
            if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) return;
            HttpStatus status = HttpStatus.resolve(code);
            String title = status == null ? "Error" : status.getReasonPhrase();
            String detail = status == null ? title : detail(status);
            try {
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                Writer writer = response.getReporter();
                if (writer != null) {
                    // a 400 here is a request Tomcat could not read: its errors name the request as a whole
                    String errors =
                            code == 400 ? ",\"errors\":[{\"field\":\"request\",\"message\":\"" + detail + "\"}]" : "";
                    writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + code
                            + ",\"detail\":\"" + detail + "\"" + errors + "}");
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException ignored) {
                // the client is gone or the response was committed meanwhile: nothing more to tell it
            }
        }
    }
}
