-- The console's statistics, written by the console-stats tracking processor (StatsProjection) and rebuilt by
-- replaying the event store. Instants are epoch milliseconds (see V3); minute_at is the start of the minute.

-- Jobs per minute by namespace, type and outcome (CREATED, SUCCEEDED, FAILED, TIMED_OUT, CANCELED: one per event, so
-- a job failing twice then succeeding counts two FAILED and one SUCCEEDED). The overview reads a day of it by the
-- primary key's leading column.
CREATE TABLE stats_outcomes (
    minute_at BIGINT       NOT NULL,
    namespace VARCHAR(100) NOT NULL,
    job_type  VARCHAR(100) NOT NULL,
    outcome   VARCHAR(20)  NOT NULL,
    jobs      BIGINT       NOT NULL,
    PRIMARY KEY (minute_at, namespace, job_type, outcome)
) ENGINE = InnoDB;

-- Starts per minute by namespace and start-lag bucket (start minus due; the buckets' bounds are in StartLagBuckets).
CREATE TABLE stats_start_lag (
    minute_at BIGINT       NOT NULL,
    namespace VARCHAR(100) NOT NULL,
    bucket    INT          NOT NULL,
    starts    BIGINT       NOT NULL,
    PRIMARY KEY (minute_at, namespace, bucket)
) ENGINE = InnoDB;

-- Each node writes its own row every few seconds: the console's node list (a node not seen for 30 s is shown as
-- gone). Operational state, not history.
CREATE TABLE console_nodes (
    node_id    VARCHAR(255) NOT NULL,
    started_at BIGINT       NOT NULL,
    last_seen  BIGINT       NOT NULL,
    health     VARCHAR(20)  NOT NULL,
    last_scan  BIGINT,
    PRIMARY KEY (node_id)
) ENGINE = InnoDB;
