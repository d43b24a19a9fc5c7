package io.axscheduler.api.admin;

/**
 * The streams of the admin trail: key, user, alert rule, rebuild, worker removal and scanning changes are events of
 * the aggregate type {@link #TYPE}, each stream named by what it is about. The common prefix keeps them apart from job
 * and schedule ids (UUIDs) in the event store's one namespace of aggregate ids, and lets the trail be read by a range
 * of that key.
 */
public final class AdminTrails {

    public static final String TYPE = "AdminTrail";
    public static final String PREFIX = "admin:";

    private AdminTrails() {}

    public static String key(String keyId) {
        return PREFIX + "key:" + keyId;
    }

    public static String user(String username) {
        return PREFIX + "user:" + username;
    }

    public static String alertRule(String name) {
        return PREFIX + "alert-rule:" + name;
    }

    public static String rebuild(String rebuildId) {
        return PREFIX + "rebuild:" + rebuildId;
    }

    public static String worker(String workerId) {
        return PREFIX + "worker:" + workerId;
    }

    public static String scanning(String node) {
        return PREFIX + "scanning:" + node;
    }
}
