-- A schedule key names one schedule within its namespace, as a job key names one job: a create sent again with the
-- same key (a deploy tool's retry after a timeout) answers with the schedule the first one made instead of making a
-- second that fires as well. The row is inserted in the transaction that appends ScheduleCreated, so two concurrent
-- creates of one key make one schedule. A key outlives its schedule's delete, as a job key outlives its job.
CREATE TABLE schedule_keys (
    schedule_key VARCHAR(255) NOT NULL,
    namespace    VARCHAR(63)  NOT NULL,
    schedule_id  VARCHAR(64)  NOT NULL,
    PRIMARY KEY (schedule_key, namespace)
) ENGINE = InnoDB;
