package io.axscheduler.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** Reads a node's /actuator/prometheus over HTTP, as Prometheus would, and finds samples by name and labels. */
final class Scrape {

    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String text;

    private Scrape(String text) {
        this.text = text;
    }

    static Scrape of(Node node) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + node.api.port + "/actuator/prometheus"))
                            .timeout(Duration.ofSeconds(30))
                            // the metrics are for a VIEWER: the tests' admin key
                            .header("Authorization", "Bearer " + Api.ADMIN_KEY)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) throw new AssertionError("scrape answered " + r.statusCode());
            return new Scrape(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The sample of {@code name} whose labels include all of {@code labels} (the sum when several match), or NaN
     * when none does.
     */
    double value(String name, String... labels) {
        Map<String, String> want = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) want.put(labels[i], labels[i + 1]);
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) continue;
            Map<String, String> have = new TreeMap<>();
            int open = line.indexOf('{');
            int close = line.lastIndexOf('}');
            if (open == name.length() && close > open) {
                for (String pair : line.substring(open + 1, close).split(",")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) have.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
                }
            }
            if (!have.entrySet().containsAll(want.entrySet())) continue;
            String number = line.substring(line.lastIndexOf(' ') + 1);
            sum += Double.parseDouble(number);
            found = true;
        }
        return found ? sum : Double.NaN;
    }

    String text() {
        return text;
    }
}
