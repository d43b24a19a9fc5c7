package io.axscheduler.deploy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** A client of the server-sent event stream ({@code GET /api/v1/stream}) for the tests. */
final class EventStream {

    private static final HttpClient http = HttpClient.newHttpClient();

    private EventStream() {}

    /**
     * Reads the stream's data lines into {@code lines} on a thread of its own: first ":open" once the stream answered
     * 200 as {@code text/event-stream}, or "status N type T" when it answered otherwise; ":closed" when the node ended
     * it.
     */
    static Thread listen(Api api, String path, List<String> lines) {
        AtomicReference<InputStream> body = new AtomicReference<>();
        Thread t =
                new Thread(() -> {
                    try {
                        HttpResponse<InputStream> response = http.send(
                                api.authorized(HttpRequest.newBuilder(
                                                URI.create("http://127.0.0.1:" + api.port + path)))
                                        .header("Accept", "text/event-stream")
                                        .build(),
                                HttpResponse.BodyHandlers.ofInputStream());
                        String type =
                                response.headers().firstValue("Content-Type").orElse("");
                        if (response.statusCode() != 200 || !type.startsWith("text/event-stream")) {
                            lines.add("status " + response.statusCode() + " type " + type);
                            return;
                        }
                        body.set(response.body());
                        lines.add(":open");
                        try (BufferedReader reader =
                                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                            String line;
                            while (!Thread.currentThread().isInterrupted() && (line = reader.readLine()) != null) {
                                if (line.startsWith("data:")) lines.add(line);
                            }
                        }
                        if (!Thread.currentThread().isInterrupted()) lines.add(":closed");
                    } catch (Exception e) {
                        if (!Thread.currentThread().isInterrupted()) lines.add("error: " + e);
                    }
                }) {
                    /** Ends the subscription too: a read blocked in the client does not notice the interrupt. */
                    @Override
                    public void interrupt() {
                        super.interrupt();
                        InputStream in = body.get();
                        try {
                            if (in != null) in.close();
                        } catch (IOException ignored) {
                            // closing is all that is wanted
                        }
                    }
                };
        t.setDaemon(true);
        t.start();
        return t;
    }
}
