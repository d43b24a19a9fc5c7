package io.axscheduler.api.admin;

public record WorkerRemoved(String workerId, String app, String namespace, String address, String reason) {}
