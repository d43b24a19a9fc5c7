package io.axscheduler.api.worker;

import java.util.List;

/**
 * A worker announces itself: {@code address} is the base URL the scheduler pushes jobs to, {@code capacity} how
 * many jobs it runs at once (its pool size).
 */
public record RegisterWorker(String app, String address, List<String> jobTypes, int capacity, String namespace) {

    public RegisterWorker {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** In the {@code default} namespace. */
    public RegisterWorker(String app, String address, List<String> jobTypes, int capacity) {
        this(app, address, jobTypes, capacity, null);
    }
}
