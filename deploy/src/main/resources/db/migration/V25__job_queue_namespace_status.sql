-- The console shows a user only the namespaces the user may see: its counts by status, waiting jobs by type and job
-- lists filtered by status and type are then ranges of this index per namespace instead of walks of a whole status
-- (every namespace's rows) filtered row by row.
CREATE INDEX job_queue_namespace_status ON job_queue (namespace, status, job_type, created_at);
