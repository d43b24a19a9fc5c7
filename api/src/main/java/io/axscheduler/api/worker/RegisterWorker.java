package io.axscheduler.api.worker;

import java.util.List;

/**
 * A worker announces itself: {@code address} is the base URL the scheduler pushes jobs to, {@code capacity} how
 * many jobs it runs at once (its pool size).
 */
public record RegisterWorker(String app, String address, List<String> jobTypes, int capacity) {}
