package io.axscheduler.api.admin;

import java.util.Map;

/** An alert rule changed through the API, as stored after the change. */
public record AlertRuleUpdated(String name, Map<String, Object> rule) {}
