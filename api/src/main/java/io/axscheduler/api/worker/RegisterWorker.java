package io.axscheduler.api.worker;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A worker announces itself: {@code address} is the base URL the scheduler pushes jobs to, {@code capacity} how
 * many jobs it runs at once (its pool size).
 */
public record RegisterWorker(String app, String address, List<String> jobTypes, int capacity, String namespace) {

    /**
     * What an app's name and each job type a worker registers must match; a job's {@code executorApp} must too, or no
     * worker could ever take it.
     */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    /**
     * A header the worker library sends with every call: a random id of its process, the same across the
     * registrations it makes. A registration that replaces an earlier one at its address tells by it another process
     * sharing the address (told 410) from the same process registering again (a retry, told nothing). A header rather
     * than a field: schedulers that do not know it ignore it, where they refuse an unknown field.
     */
    public static final String INSTANCE_HEADER = "X-Ax-Worker-Instance";

    /** What an instance id must look like (a UUID fits). */
    public static final Pattern INSTANCE = Pattern.compile("[A-Za-z0-9-]{1,64}");

    public RegisterWorker {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** In the {@code default} namespace. */
    public RegisterWorker(String app, String address, List<String> jobTypes, int capacity) {
        this(app, address, jobTypes, capacity, null);
    }
}
