-- The cluster gauge of the oldest due job per namespace, read every few seconds on every node, walked the whole of
-- job_queue (finished jobs too) by the namespace index; with this one it reads only the claimable rows' entries.
CREATE INDEX idx_job_queue_due_namespace ON job_queue (claimable, namespace, run_at);
