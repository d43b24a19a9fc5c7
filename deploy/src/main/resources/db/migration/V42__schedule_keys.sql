-- A schedule key names one schedule within its namespace, as a job key names one job: a create sent again with the
-- same key (a deploy tool's retry after a timeout) answers with the schedule the first one made instead of making a
-- second that fires as well. The row is inserted in the transaction that appends ScheduleCreated, so two concurrent
-- creates of one key make one schedule. Schedules are never deleted from the store (a deleted one keeps its history),
-- and their keys stay with them. Keys compare byte for byte, as job keys do since V13: a binary string has no
-- collation and no trailing-space padding, on MySQL and MariaDB alike; 1020 bytes hold 255 characters of UTF-8.
CREATE TABLE schedule_keys (
    schedule_key VARBINARY(1020) NOT NULL,
    namespace    VARCHAR(63)     NOT NULL,
    schedule_id  VARCHAR(64)     NOT NULL,
    PRIMARY KEY (schedule_key, namespace)
) ENGINE = InnoDB;
