package io.axscheduler.api.admin;

/** What happened to an alert rule. */
public enum AlertRuleChange {
    CREATED,
    UPDATED,
    DELETED
}
