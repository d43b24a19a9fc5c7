package io.axscheduler.api.schedule;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Quartz: seconds first, six or seven fields, {@code ?} in day-of-month or day-of-week. Unix: five fields. */
public enum CronDialect {
    QUARTZ("quartz"),
    UNIX("unix");

    private final String wireName;

    CronDialect(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static CronDialect fromWireName(String name) {
        for (CronDialect d : values()) {
            if (d.wireName.equalsIgnoreCase(name)) return d;
        }
        return null;
    }
}
