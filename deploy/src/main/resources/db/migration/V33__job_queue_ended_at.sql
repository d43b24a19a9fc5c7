-- When a job last ended (SUCCEEDED, FAILED, TIMED_OUT or CANCELED), NULL while it may still move: the retention's
-- purge walks ended jobs by it. Jobs ended before this migration keep NULL; the purge's hourly walk by creation finds
-- them by status and last change instead. Adding a nullable column at the end is instant on MariaDB 10.3+ and MySQL 8.0.12+.
ALTER TABLE job_queue ADD COLUMN ended_at BIGINT NULL;
