-- Fire times a schedule's misfire policy skipped (nodes down, scanning paused, the schedule paused, its type held
-- back), one row a skip record, written by the alerts projection from ScheduleFireSkipped: what the SCHEDULE_MISFIRED
-- alert rule counts within its event window. Pruned after a day, as job_failures is.
CREATE TABLE schedule_misfires (
    schedule_id VARCHAR(64)   NOT NULL,
    fire_time   BIGINT        NOT NULL,
    namespace   VARCHAR(63)   NOT NULL,
    reason      VARCHAR(2000),
    skipped_at  BIGINT        NOT NULL,
    PRIMARY KEY (schedule_id, fire_time),
    INDEX idx_schedule_misfires_at (skipped_at)
) ENGINE = InnoDB;
