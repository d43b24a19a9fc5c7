-- A schedule's jobs, newest first (the API's and the console's list by schedule): every page sorted all of a
-- schedule's jobs, 86,400 a day for one firing every second; in creation order they are a range of the index.
-- One statement per migration: DDL is not transactional, and a file half applied could not be run again.
ALTER TABLE job_queue DROP INDEX idx_job_queue_schedule, ADD INDEX idx_job_queue_schedule (schedule_id, created_at);
