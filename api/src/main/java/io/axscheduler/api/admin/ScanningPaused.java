package io.axscheduler.api.admin;

public record ScanningPaused(String node) {}
