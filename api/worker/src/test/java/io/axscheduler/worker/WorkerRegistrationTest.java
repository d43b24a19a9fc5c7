package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.api.spi.JobHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** What a service that only names itself registers: its application name, at its port and servlet context path. */
class WorkerRegistrationTest {

    @EnableAutoConfiguration
    static class Orders {
        @Bean
        JobHandler closeOrder() {
            return new JobHandler() {
                @Override
                public String jobType() {
                    return "close-order";
                }

                @Override
                public String execute(io.axscheduler.api.spi.JobContext context) {
                    return "closed";
                }
            };
        }
    }

    @Test
    void the_app_defaults_to_the_application_name_and_the_address_keeps_the_context_path() throws Exception {
        CompletableFuture<String> registered = new CompletableFuture<>();
        HttpServer scheduler = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        scheduler.createContext("/api/v1/workers/register", e -> {
            registered.complete(new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"workerId\":\"w1\",\"secret\":\"00\",\"heartbeatIntervalMs\":60000}"
                    .getBytes(StandardCharsets.UTF_8);
            e.getResponseHeaders().add("Content-Type", "application/json");
            e.sendResponseHeaders(201, body.length);
            e.getResponseBody().write(body);
            e.close();
        });
        scheduler.createContext("/api/v1/workers/", e -> {
            e.sendResponseHeaders(204, -1);
            e.close();
        });
        scheduler.start();
        try (ConfigurableApplicationContext service = new SpringApplicationBuilder(Orders.class)
                .properties(
                        "server.port=0",
                        "server.servlet.context-path=/orders",
                        "spring.application.name=orders",
                        "ax.worker.scheduler-url=http://127.0.0.1:"
                                + scheduler.getAddress().getPort())
                .run()) {
            JsonNode body = new ObjectMapper().readTree(registered.get(20, TimeUnit.SECONDS));

            assertThat(body.path("app").asText()).isEqualTo("orders");
            String address = body.path("address").asText();
            assertThat(address).matches("http://127\\.0\\.0\\.1:\\d+/orders");
            // the push endpoint is where the address says: an unsigned push is refused there, not unknown
            HttpResponse<String> push = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(address + "/ax-worker/jobs"))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(push.statusCode()).isEqualTo(401);
            // a service with the actuator gets the worker's health
            org.springframework.boot.actuate.health.HealthIndicator health = service.getBean(
                    "axWorkerHealthIndicator", org.springframework.boot.actuate.health.HealthIndicator.class);
            for (int i = 0; i < 100 && health.health().getDetails().get("workerId") == null; i++) Thread.sleep(50);
            assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
            assertThat(health.health().getDetails())
                    .containsEntry("workerId", "w1")
                    .containsEntry("app", "orders");
        } finally {
            scheduler.stop(0);
        }
    }
}
