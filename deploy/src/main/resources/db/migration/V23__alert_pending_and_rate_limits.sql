-- A rule's conditions that hold but have not held for the rule's forMs yet: (rule, key) first seen holding at
-- since_at and last seen at seen_at, both in database time. Kept here rather than in the evaluating node's memory, so
-- a node that takes the evaluation over counts forMs on from the same instant. Written only by the lease holder.
CREATE TABLE alert_pending (
    rule      VARCHAR(100) NOT NULL,
    alert_key VARCHAR(255) NOT NULL,
    since_at  BIGINT       NOT NULL,
    seen_at   BIGINT       NOT NULL,
    PRIMARY KEY (rule, alert_key)
) ENGINE = InnoDB;

-- One row per channel told of a raise, written from AlertRaised in the transaction of its append: the per-channel
-- rate limit counts these. Pruned after a day (no rate window is longer).
CREATE TABLE alert_notifications (
    alert_id    VARCHAR(64)  NOT NULL,
    channel     VARCHAR(100) NOT NULL,
    notified_at BIGINT       NOT NULL,
    PRIMARY KEY (alert_id, channel),
    INDEX idx_alert_notifications_channel (channel, notified_at),
    INDEX idx_alert_notifications_at (notified_at)
) ENGINE = InnoDB;

-- The channels told of an alert's raise (JSON list), so its resolve tells the same ones. NULL on alerts raised before
-- this column: their resolve tells the rule's channels.
ALTER TABLE alerts ADD COLUMN told VARCHAR(2000);

-- A rule's own rate limit (notifications per ax.alerts.rate-limit.window-ms); NULL takes ax.alerts.rate-limit.per-rule.
ALTER TABLE alert_rules ADD COLUMN max_per_window INT;
