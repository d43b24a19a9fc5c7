package io.axscheduler.api;

/** Keys of the metadata every command and event carries. */
public final class Metadata {
    /** Who asked: the {@code X-Actor} header, {@code anonymous}, or {@code scheduler} for the node's own work. */
    public static final String ACTOR = "actor";
    /** The node that handled the command and applied the event. */
    public static final String NODE = "node";
    public static final String ANONYMOUS = "anonymous";
    public static final String SCHEDULER = "scheduler";

    private Metadata() {
    }
}
