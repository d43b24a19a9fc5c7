package io.axscheduler.api;

/**
 * Error, result and reason texts are bounded by their VARCHAR(2000) columns; a longer one must not fail the event
 * append. Every place that records such a text cuts it here, the same way.
 */
public final class TextLimit {

    public static final int MAX_CHARS = 2000;

    private TextLimit() {}

    /**
     * Null when {@code text}, written by a person (a cancel's reason), may be stored as it is; else why not. Line breaks
     * and tabs are text; other control characters (a NUL, a terminal's escape) and bidirectional formatting characters
     * would garble the logs and pages that show it, or make it display as something else.
     */
    public static String unprintable(String text) {
        boolean bad = text.chars()
                .anyMatch(c -> (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') || bidiFormatting(c));
        return bad
                ? "must not hold control characters (but line breaks and tabs) or bidirectional formatting characters"
                : null;
    }

    /** The embeddings, overrides and isolates of bidirectional text: they make a text display as another. */
    public static boolean bidiFormatting(int c) {
        return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    }

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
