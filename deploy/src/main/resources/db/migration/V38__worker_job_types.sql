-- The job types workers registered in each namespace, as their last worker left (deregistered, went silent, was
-- taken out or replaced): a submit of such a type is taken for `ax.scheduler.workers.types-kept-ms` after that and
-- waits for a worker (a rolling restart, an outage), where it was refused as an unknown type while no worker of it
-- was registered. Types of registered workers are read from `workers`; rows older than the setting are deleted by
-- each node's check for silent workers, once a minute. `left_at` is the database's clock in epoch milliseconds, as
-- in `workers`.
CREATE TABLE worker_job_types (
    namespace VARCHAR(63)  NOT NULL,
    job_type  VARCHAR(100) NOT NULL,
    left_at   BIGINT       NOT NULL,
    PRIMARY KEY (namespace, job_type),
    INDEX idx_worker_job_types_left (left_at)
) ENGINE = InnoDB;
