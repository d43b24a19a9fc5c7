package io.axscheduler.api.admin;

public record ApiKeyRevoked(String keyId, String name) {}
