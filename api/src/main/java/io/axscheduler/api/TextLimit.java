package io.axscheduler.api;

/**
 * Error, result and reason texts are bounded by their VARCHAR(2000) columns; a longer one must not fail the event
 * append. Every place that records such a text cuts it here, the same way.
 */
public final class TextLimit {

    public static final int MAX_CHARS = 2000;

    private TextLimit() {}

    public static String truncate(String text) {
        if (text == null || text.length() <= MAX_CHARS) {
            return text;
        }
        int end = MAX_CHARS;
        // a cut between the halves of a surrogate pair leaves invalid UTF-16, which utf8mb4 columns refuse
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }
}
