package io.axscheduler.api.admin;

public record ProjectionRebuildRequested(String rebuildId, String name) {}
