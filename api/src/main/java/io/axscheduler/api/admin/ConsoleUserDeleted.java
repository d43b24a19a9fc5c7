package io.axscheduler.api.admin;

public record ConsoleUserDeleted(String username) {}
