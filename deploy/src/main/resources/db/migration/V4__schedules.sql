-- The schedules read model, written by a subscribing processor in the transaction of the schedule's event append,
-- so the fire scan never reads a schedule behind its aggregate. Instants are epoch milliseconds (see V3).
CREATE TABLE schedules (
    schedule_id      VARCHAR(64)   NOT NULL,
    name             VARCHAR(200),
    state            VARCHAR(20)   NOT NULL,
    trigger_type     VARCHAR(20)   NOT NULL,
    trigger_json     VARCHAR(2000) NOT NULL,
    timezone         VARCHAR(100)  NOT NULL,
    job_type         VARCHAR(100)  NOT NULL,
    job_json         MEDIUMTEXT    NOT NULL,
    misfire_policy   VARCHAR(20)   NOT NULL,
    overlap_policy   VARCHAR(20)   NOT NULL,
    -- fixed rates count whole intervals from here; updates restart it
    anchor_at        BIGINT        NOT NULL,
    -- NULL: fires no more (once, done) or, for a fixed delay, waits for its last job to end
    next_fire_at     BIGINT,
    -- a fire held back by overlap policy QUEUE until the last job ends
    queued_fire_at   BIGINT,
    last_fire_at     BIGINT,
    last_job_id      VARCHAR(64),
    last_skip_reason VARCHAR(2000),
    fire_count       BIGINT        NOT NULL DEFAULT 0,
    skip_count       BIGINT        NOT NULL DEFAULT 0,
    created_at       BIGINT        NOT NULL,
    updated_at       BIGINT        NOT NULL,
    PRIMARY KEY (schedule_id),
    -- the fire scan: active schedules whose fire time has come
    INDEX idx_schedules_due (state, next_fire_at),
    -- held-back fires waiting for their job to end
    INDEX idx_schedules_queued (state, queued_fire_at),
    -- fixed delays waiting for their job to end
    INDEX idx_schedules_waiting (state, trigger_type, next_fire_at),
    INDEX idx_schedules_name (name),
    INDEX idx_schedules_created (created_at)
) ENGINE = InnoDB;
