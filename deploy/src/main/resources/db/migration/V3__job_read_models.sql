-- Instants are epoch milliseconds in BIGINT: MySQL Connector/J truncates the fraction of TIMESTAMP parameters on
-- MariaDB 10.x, and a job due at 10:00:00.900 must not run at 10:00:00. Shared time is the database's:
-- ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) with the session time zone at UTC.

-- Set-based validation of the command side: one row per job key, inserted in the transaction that appends
-- JobCreated, so two concurrent submits of one key make exactly one job.
CREATE TABLE job_keys (
    job_key VARCHAR(255) NOT NULL,
    job_id  VARCHAR(64)  NOT NULL,
    PRIMARY KEY (job_key)
) ENGINE = InnoDB;

-- The job_queue projection, written by a subscribing processor in the transaction of the event append.
CREATE TABLE job_queue (
    job_id         VARCHAR(64)   NOT NULL,
    job_key        VARCHAR(255),
    job_type       VARCHAR(100)  NOT NULL,
    status         VARCHAR(20)   NOT NULL,
    -- 1 while WAITING or RETRY_WAITING: one equality the scan index can start with
    claimable      TINYINT       NOT NULL,
    priority       INT           NOT NULL,
    -- -priority: "priority DESC, run_at ASC" as one ascending index order, which MariaDB before 10.8 needs
    neg_priority   INT           NOT NULL,
    run_at         BIGINT        NOT NULL,
    attempt        INT           NOT NULL,
    max_retries    INT           NOT NULL,
    timeout_ms     BIGINT        NOT NULL,
    params         MEDIUMTEXT,
    node           VARCHAR(255),
    worker         VARCHAR(255),
    lease_until    BIGINT,
    schedule_id    VARCHAR(64),
    executor_app   VARCHAR(100),
    route_strategy VARCHAR(40),
    last_error     VARCHAR(2000),
    result         VARCHAR(2000),
    created_at     BIGINT        NOT NULL,
    updated_at     BIGINT        NOT NULL,
    PRIMARY KEY (job_id),
    -- the scan, per job type: claimable rows by priority, then due time; without it sort-then-limit locks every
    -- waiting row it sorts
    INDEX idx_job_queue_scan (claimable, job_type, neg_priority, run_at),
    -- the aging scan, per job type: claimable rows that have waited longest
    INDEX idx_job_queue_aging (claimable, job_type, run_at),
    INDEX idx_job_queue_status (status, lease_until),
    INDEX idx_job_queue_type (job_type, status),
    INDEX idx_job_queue_schedule (schedule_id),
    INDEX idx_job_queue_updated (updated_at),
    -- the job list, newest first
    INDEX idx_job_queue_created (created_at)
) ENGINE = InnoDB;
