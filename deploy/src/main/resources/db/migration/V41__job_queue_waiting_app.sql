-- The executor app of a job that waits to be claimed, null otherwise: the jobs bound to an app that wait for its
-- workers, found without reading the rest. The no-live-worker alert and the check that gives up on jobs no worker
-- can take asked `claimable = 1 AND executor_app IS NOT NULL`, which no index answers; with a backlog of jobs the
-- nodes run themselves they read every waiting row, each evaluation on every node.
-- The job_queue projection writes it with `claimable`, in the same statements. A job bound to no app keeps null from
-- insert to delete, so its claim, start and end leave its entry in this index as it is; a retry's new due time moves
-- it. A plain column rather than a generated one: InnoDB's purge computes indexed virtual columns, a path with a
-- history of server crashes, on the busiest table there is here. Adding the column is instant; the backfill reads
-- the waiting jobs once; the index is built by a scan of the table while the first new node starts.
ALTER TABLE job_queue ADD COLUMN waiting_app VARCHAR(100) NULL;
UPDATE job_queue SET waiting_app = executor_app WHERE claimable = 1 AND executor_app IS NOT NULL;
CREATE INDEX idx_job_queue_waiting_app ON job_queue (waiting_app, namespace, job_type, run_at);
