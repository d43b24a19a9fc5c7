package io.axscheduler.deploy;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every request body is at most {@code ax.api.max-body-bytes} (16 MiB): a larger one is answered 413 before anything
 * reads it, authentication included. A body sent without a length (chunked) is read up to the limit first, so that
 * it too is refused as a whole rather than parsed in part.
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
    FilterRegistrationBean<Limit> bodyLimitFilter(Settings settings) {
        FilterRegistrationBean<Limit> registration = new FilterRegistrationBean<>(new Limit(settings.maxBodyBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    static final class Limit extends OncePerRequestFilter {

        private final long maxBytes;

        Limit(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            long length = request.getContentLengthLong();
            if (length > maxBytes) {
                refuse(response);
                return;
            }
            if (length < 0 && request.getHeader("Transfer-Encoding") != null) {
                byte[] body = readUpTo(request.getInputStream(), maxBytes + 1);
                if (body.length > maxBytes) {
                    refuse(response);
                    return;
                }
                chain.doFilter(new Buffered(request, body), response);
                return;
            }
            chain.doFilter(request, response);
        }

        private static byte[] readUpTo(InputStream in, long limit) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int n;
            while (out.size() < limit && (n = in.read(chunk, 0, (int) Math.min(chunk.length, limit - out.size()))) > 0)
                out.write(chunk, 0, n);
            return out.toByteArray();
        }

        private void refuse(HttpServletResponse response) throws IOException {
            // what the client is still sending Tomcat swallows up to its max-swallow-size (2 MB), then closes
            response.setStatus(413);
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            String message = "is larger than " + maxBytes + " bytes";
            response.getWriter()
                    .write(
                            "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,\"detail\":\"body: "
                                    + message + "\",\"errors\":[{\"field\":\"body\",\"message\":\"" + message
                                    + "\"}]}");
        }
    }

    /** A request whose body was read ahead into memory. */
    private static final class Buffered extends HttpServletRequestWrapper {

        private final byte[] body;

        Buffered(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("a buffered body is read blocking");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(
                    getInputStream(),
                    encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
        }
    }
}
