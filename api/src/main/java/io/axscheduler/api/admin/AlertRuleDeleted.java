package io.axscheduler.api.admin;

/** An alert rule removed through the API. */
public record AlertRuleDeleted(String name) {}
