package io.axscheduler.api.alert;

/**
 * The job key of one alert's delivery to one channel: one job per alert, state and channel, whichever node raises or
 * resolves it. No submit may name such a key, so none takes a delivery's job (and silences it).
 */
public final class AlertJobKeys {

    public static final String PREFIX = "alert:";

    private AlertJobKeys() {}

    public static String of(String alertId, String state, String channel) {
        return PREFIX + alertId + ":" + state + ":" + channel;
    }
}
