-- What a job or schedule key was first sent with: the SHA-256 of its create request's body (the key left out, fields
-- in name order). The same key sent again with another body is refused instead of answered with the first one's job or
-- schedule. Null for keys taken before this column existed, and for the scheduler's own keys (schedules' fires,
-- alerts' deliveries): those are never compared. Added at the end and nullable, so both servers add it in place
-- without copying the table (MariaDB 10.3+, MySQL 8.0.12+).
ALTER TABLE job_keys ADD COLUMN request_hash BINARY(32) NULL;
ALTER TABLE schedule_keys ADD COLUMN request_hash BINARY(32) NULL;
