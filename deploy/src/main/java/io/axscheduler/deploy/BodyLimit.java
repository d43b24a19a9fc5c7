package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.problem.FieldError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every request body is at most {@code ax.api.max-body-bytes} (16 MiB): a larger one whose length is told is answered
 * 413 before anything reads it, authentication included. A body sent without a length (chunked) is counted as it is
 * read, and its reader fails past the limit with {@link TooLarge}, which {@link ProblemHandlers} answers with 413; it
 * is never held in memory here (before authentication, a buffer of it would be anyone's to fill).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(BodyLimit.Settings.class)
class BodyLimit {

    /** {@code ax.api.*}: {@code maxBodyBytes}, the largest request body (at least 1024). */
    @ConfigurationProperties("ax.api")
    record Settings(@DefaultValue("16777216") long maxBodyBytes) {
        Settings {
            if (maxBodyBytes < 1024) throw new IllegalArgumentException("ax.api.max-body-bytes must be at least 1024");
        }
    }

    @Bean
    FilterRegistrationBean<Limit> bodyLimitFilter(Settings settings, ObjectMapper json) {
        FilterRegistrationBean<Limit> registration =
                new FilterRegistrationBean<>(new Limit(settings.maxBodyBytes(), json));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    static final class Limit extends OncePerRequestFilter {

        private final long maxBytes;
        private final ObjectMapper json;

        Limit(long maxBytes, ObjectMapper json) {
            this.maxBytes = maxBytes;
            this.json = json;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            long length = request.getContentLengthLong();
            if (length > maxBytes) {
                refuse(request, response);
                return;
            }
            if (length < 0 && request.getHeader("Transfer-Encoding") != null) {
                chain.doFilter(new Counted(request, maxBytes), response);
                return;
            }
            chain.doFilter(request, response);
        }

        private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
            // what the client is still sending Tomcat swallows up to server.tomcat.max-swallow-size, then closes
            response.setStatus(413);
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            ProblemDetail problem = problem(maxBytes);
            // as the controllers' problems name theirs: the path asked for
            problem.setInstance(java.net.URI.create(request.getRequestURI()));
            json.writeValue(response.getOutputStream(), problem);
        }
    }

    /** The 413 for a body over {@code maxBytes}, naming {@code body}, whether the filter or a reader found it. */
    static ProblemDetail problem(long maxBytes) {
        String message = "is larger than " + maxBytes + " bytes";
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.PAYLOAD_TOO_LARGE, "body: " + message);
        problem.setTitle("Content Too Large");
        problem.setProperty("errors", List.of(new FieldError("body", message)));
        return problem;
    }

    /** What a body's reader throws past the limit; answered 413 naming {@code body}. */
    static final class TooLarge extends IOException {
        final long maxBytes;

        TooLarge(long maxBytes) {
            super("the request body is larger than " + maxBytes + " bytes");
            this.maxBytes = maxBytes;
        }
    }

    /** A request whose body's bytes are counted as they are read. */
    private static final class Counted extends HttpServletRequestWrapper {

        private final long maxBytes;
        private ServletInputStream counted;

        Counted(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (counted == null) counted = new CountingStream(super.getInputStream(), maxBytes);
            return counted;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(
                    getInputStream(),
                    encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
        }
    }

    private static final class CountingStream extends ServletInputStream {

        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        CountingStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        private int counted(int n) throws TooLarge {
            if (n > 0 && (read += n) > maxBytes) throw new TooLarge(maxBytes);
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) counted(1);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return counted(in.read(b, off, len));
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
