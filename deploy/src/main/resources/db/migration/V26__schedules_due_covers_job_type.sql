-- While a job type is held back (its jobs wait too long), the fire scan looks for due schedules of the other types
-- only. Its due schedules then pile up at the head of this index, and every pass walked them: a locking walk that read
-- each row to see its type. With the type in the index, the scan finds the schedules it may fire in the index alone
-- and locks only those, by their keys. The index moves with next_fire_at as before; a schedule's type rarely changes.
ALTER TABLE schedules DROP INDEX idx_schedules_due, ADD INDEX idx_schedules_due (state, next_fire_at, job_type);
