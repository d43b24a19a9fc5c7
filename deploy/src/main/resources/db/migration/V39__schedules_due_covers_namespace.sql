-- A job type is held back in one namespace (its jobs there wait too long), not in all: the fire scan leaves out the
-- due schedules of that type and namespace only. With the namespace in the due index as the type is (V26), the scan
-- still finds the schedules it may fire in the index alone while something is held.
ALTER TABLE schedules DROP INDEX idx_schedules_due, ADD INDEX idx_schedules_due (state, next_fire_at, job_type, namespace);
