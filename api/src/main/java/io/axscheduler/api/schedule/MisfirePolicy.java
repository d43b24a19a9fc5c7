package io.axscheduler.api.schedule;

/**
 * What a schedule does with fire times it missed (nodes down, paused and resumed, overloaded): fire once to catch up
 * and then follow the schedule; skip them all; or fire every one, up to a configured bound.
 */
public enum MisfirePolicy {
    FIRE_ONCE,
    SKIP,
    FIRE_ALL;

    public static final MisfirePolicy DEFAULT = FIRE_ONCE;
}
