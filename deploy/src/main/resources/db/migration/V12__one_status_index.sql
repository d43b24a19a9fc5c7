-- Every change of a job's status moved an entry in two indexes that start with or contain it: (status, lease_until)
-- and (job_type, status) - four of the six index entries a short job moves between its claim and its success. One
-- index serves what both did: the job list by status, by status and type (in created_at order, as the list is
-- sorted), by type alone (the list asks for every status of that type), and the lease check, which reads the few
-- CLAIMED rows there are at any moment.
ALTER TABLE job_queue
    DROP INDEX idx_job_queue_status,
    DROP INDEX idx_job_queue_type,
    ADD INDEX idx_job_queue_status_type (status, job_type, created_at);
