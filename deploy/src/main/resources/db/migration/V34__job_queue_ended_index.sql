-- The purge's walk over ended jobs, oldest end first. Written once when a job ends (and cleared by a re-run): the
-- claims and starts of a job do not touch it.
CREATE INDEX job_queue_ended ON job_queue (ended_at);
