package io.axscheduler.api.schedule;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The kinds of trigger, by the names the HTTP contract uses ({@code cron}, {@code fixedRate}, …). */
public enum TriggerType {
    CRON("cron"),
    FIXED_RATE("fixedRate"),
    FIXED_DELAY("fixedDelay"),
    ONCE("once");

    private final String wireName;

    TriggerType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** Accepts the contract's name; null for anything else. */
    @JsonCreator
    public static TriggerType fromWireName(String name) {
        for (TriggerType t : values()) {
            if (t.wireName.equals(name) || t.name().equals(name)) return t;
        }
        return null;
    }
}
