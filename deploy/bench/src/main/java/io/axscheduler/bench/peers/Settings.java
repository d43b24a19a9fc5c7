package io.axscheduler.bench.peers;

/** The harness's settings come from the environment, as the ax-scheduler side's do, so one command sets both. */
final class Settings {

    private Settings() {}

    static String text(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static int number(String name, int fallback) {
        return Integer.parseInt(text(name, String.valueOf(fallback)));
    }
}
