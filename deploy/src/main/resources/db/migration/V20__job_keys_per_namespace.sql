-- A job key names one job within its namespace: two teams may use the same key without one getting the other's job.
-- Existing keys take their job's namespace (job_queue holds it since V19; a key whose job has no row there stays in
-- 'default'). Keys were unique on their own, so they stay unique with the namespace added.
-- The key comes first in the primary key, so a lookup by the key alone is still a dive into it.
ALTER TABLE job_keys ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';

UPDATE job_keys k JOIN job_queue q ON q.job_id = k.job_id
SET k.namespace = q.namespace
WHERE q.namespace <> 'default';

-- The default stays for nodes of the previous release during a rolling upgrade: they insert keys without it.
ALTER TABLE job_keys
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (job_key, namespace);
