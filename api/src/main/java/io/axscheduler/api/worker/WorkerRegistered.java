package io.axscheduler.api.worker;

/** The answer to a registration: the worker's id, the secret it signs callbacks with, and how often to heartbeat. */
public record WorkerRegistered(String workerId, String secret, long heartbeatIntervalMs) {}
