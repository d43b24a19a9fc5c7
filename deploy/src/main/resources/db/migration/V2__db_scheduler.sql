-- db-scheduler's table (MySQL layout), where Axon's DbSchedulerDeadlineManager keeps job timeouts:
-- a deadline survives a restart and fires on whichever node polls it first.
CREATE TABLE scheduled_tasks (
    task_name            VARCHAR(100) NOT NULL,
    task_instance        VARCHAR(100) NOT NULL,
    task_data            LONGBLOB,
    execution_time       TIMESTAMP(6) NOT NULL,
    picked               BOOLEAN      NOT NULL,
    picked_by            VARCHAR(50),
    last_success         TIMESTAMP(6) NULL,
    last_failure         TIMESTAMP(6) NULL,
    consecutive_failures INT,
    last_heartbeat       TIMESTAMP(6) NULL,
    version              BIGINT       NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance),
    INDEX execution_time_idx (execution_time),
    INDEX last_heartbeat_idx (last_heartbeat),
    INDEX priority_execution_time_idx (priority, execution_time)
) ENGINE = InnoDB;
