package io.axscheduler.api.admin;

import java.util.Map;

/** An alert rule made through the API, as stored. */
public record AlertRuleCreated(String name, Map<String, Object> rule) {}
