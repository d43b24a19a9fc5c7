-- The executor app of a job that waits to be claimed, null otherwise: the jobs bound to an app that wait for its
-- workers, found without reading the rest. The no-live-worker alert and the check that gives up on jobs no worker
-- can take asked `claimable = 1 AND executor_app IS NOT NULL`, which no index answers; with a backlog of jobs the
-- nodes run themselves they read every waiting row, each evaluation on every node. A virtual column costs nothing
-- to store, and its index entry of a job bound to no app stays null when the job is claimed and ends, so the claim
-- and the outcome write no entry in it: a job adds one at its insert and takes it out at its delete. Adding the
-- column changes only the table's definition; the index is built online.
ALTER TABLE job_queue
    ADD COLUMN waiting_app VARCHAR(100) GENERATED ALWAYS AS (CASE WHEN claimable = 1 THEN executor_app END) VIRTUAL;
CREATE INDEX idx_job_queue_waiting_app ON job_queue (waiting_app, namespace, job_type, run_at);
