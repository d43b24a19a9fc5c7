-- Alert rules: those set in properties are written here at start (source 'properties'), those made through
-- /api/v1/alerts/rules have source 'api'. filter and channels are JSON.
CREATE TABLE alert_rules (
    name        VARCHAR(100)  NOT NULL,
    type        VARCHAR(30)   NOT NULL,
    filter_json VARCHAR(2000) NOT NULL,
    threshold   BIGINT        NOT NULL,
    for_ms      BIGINT        NOT NULL,
    channels    VARCHAR(2000) NOT NULL,
    source      VARCHAR(20)   NOT NULL,
    created_at  BIGINT        NOT NULL,
    updated_at  BIGINT        NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB;

-- The alerts read model, written from AlertRaised / AlertResolved in the transaction of their append. open_key is
-- (rule, key) while the alert fires and NULL once resolved: its unique index lets one alert per rule and key fire at a
-- time, whichever node raises it.
CREATE TABLE alerts (
    alert_id    VARCHAR(64)   NOT NULL,
    rule        VARCHAR(100)  NOT NULL,
    type        VARCHAR(30)   NOT NULL,
    alert_key   VARCHAR(255)  NOT NULL,
    state       VARCHAR(20)   NOT NULL,
    message     VARCHAR(2000) NOT NULL,
    details     MEDIUMTEXT,
    notified    TINYINT       NOT NULL,
    open_key    VARCHAR(400),
    raised_at   BIGINT        NOT NULL,
    resolved_at BIGINT,
    PRIMARY KEY (alert_id),
    UNIQUE INDEX idx_alerts_open (open_key),
    INDEX idx_alerts_rule (rule, raised_at),
    INDEX idx_alerts_raised (raised_at)
) ENGINE = InnoDB;

-- Runs that failed or timed out, written from JobFailed / JobTimedOut: failures are few, so the failure rules read
-- this small table by time instead of job_queue, which has no index on when a job ended. Pruned after a day.
CREATE TABLE job_failures (
    job_id      VARCHAR(64)   NOT NULL,
    attempt     INT           NOT NULL,
    job_type    VARCHAR(100)  NOT NULL,
    schedule_id VARCHAR(64),
    outcome     VARCHAR(20)   NOT NULL,
    -- 1 when no retry is left
    for_good    TINYINT       NOT NULL,
    error       VARCHAR(2000),
    failed_at   BIGINT        NOT NULL,
    PRIMARY KEY (job_id, attempt),
    INDEX idx_job_failures_at (failed_at)
) ENGINE = InnoDB;

-- The node that evaluates the alert rules: it holds the lease and renews it each pass; another takes over once it
-- lapses.
CREATE TABLE alert_evaluator (
    id          INT           NOT NULL,
    node_id     VARCHAR(255),
    lease_until BIGINT        NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;
INSERT INTO alert_evaluator (id, node_id, lease_until) VALUES (1, NULL, 0);
