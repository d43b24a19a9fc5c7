-- Failure alert rules filtered by namespace read it here: each failure carries its job's namespace. Rows kept from
-- before take it from job_queue (the table holds a day of failures at most).
ALTER TABLE job_failures ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';

UPDATE job_failures f JOIN job_queue q ON q.job_id = f.job_id
SET f.namespace = q.namespace
WHERE q.namespace <> 'default';
