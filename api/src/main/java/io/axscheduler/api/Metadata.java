package io.axscheduler.api;

/** Keys of the metadata every command and event carries. */
public final class Metadata {
    /**
     * Who asked: the authenticated principal ({@code key:<name>}, {@code user:<name>}, an OIDC subject), or
     * {@code scheduler} for the node's own work. Never a header the client chose.
     */
    public static final String ACTOR = "actor";
    /** Whom the actor acted for: {@code X-On-Behalf-Of}, honoured only for a key with the ON_BEHALF_OF grant. */
    public static final String ON_BEHALF_OF = "onBehalfOf";
    /** The node that handled the command and applied the event. */
    public static final String NODE = "node";
    /**
     * On a {@code SubmitJob}, {@code true}: "a taken job key fails my unit of work" instead of answering with the job
     * the key already made. The key is then written with the unit's other such keys in one INSERT as the unit commits,
     * not in one INSERT per job. For callers that would fail on a taken key anyway: a schedule's fire.
     */
    public static final String TAKEN_KEY_FAILS = "takenKeyFails";
    /**
     * On a command, {@code true}: "my transaction holds database row locks". Such a command never waits for an
     * aggregate's in-memory lock: a busy aggregate fails it at once ({@code LockAcquisitionFailedException}), as the
     * lock's holder may be waiting for one of those rows as it commits.
     */
    public static final String HOLDS_ROW_LOCKS = "holdsRowLocks";
    /**
     * On a {@code SubmitJob} with a key: the fingerprint of the request that asked for it (64 hexadecimal digits of a
     * SHA-256), kept with the key. The key sent again with another fingerprint is refused; without one (the
     * scheduler's own submits, keys taken before fingerprints were kept) it is never compared. Not carried to events.
     */
    public static final String REQUEST_HASH = "requestHash";

    public static final String ANONYMOUS = "anonymous";
    public static final String SCHEDULER = "scheduler";

    private Metadata() {}
}
