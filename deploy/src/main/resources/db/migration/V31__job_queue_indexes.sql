-- The cluster gauge of the oldest due job per namespace, read every few seconds on every node, walked the whole of
-- job_queue (finished jobs too) by the namespace index; with this one it reads only the claimable rows' entries.
CREATE INDEX idx_job_queue_due_namespace ON job_queue (claimable, namespace, run_at);

-- A schedule's jobs, newest first (the API's and the console's list by schedule): every page sorted all of a
-- schedule's jobs, 86,400 a day for one firing every second; in creation order they are a range of the index.
ALTER TABLE job_queue DROP INDEX idx_job_queue_schedule, ADD INDEX idx_job_queue_schedule (schedule_id, created_at);
