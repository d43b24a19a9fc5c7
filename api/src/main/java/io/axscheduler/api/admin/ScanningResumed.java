package io.axscheduler.api.admin;

public record ScanningResumed(String node) {}
