-- No query filters or orders job_queue by updated_at (the job list orders by created_at; a job's updated_at is read by its key),
-- yet every write of a job changes it: each JobClaimed, JobStarted and outcome moved an entry of this index for
-- nothing. The table keeps the column.
ALTER TABLE job_queue DROP INDEX idx_job_queue_updated;
