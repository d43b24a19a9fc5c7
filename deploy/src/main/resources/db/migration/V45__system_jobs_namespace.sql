-- The scheduler's own jobs (type ax-alert: the deliveries of alerts, whose params carry what the alerts of every
-- namespace say) live in the namespace ax-system, which only a global ADMIN sees. Those made before it existed were
-- in default, where any caller of default saw and could cancel them. Their JobCreated events are read as ax-system's
-- (the event type maps a reserved job type there, so a rebuild agrees); this moves the read models' rows and the
-- deliveries' job keys to match.
UPDATE job_queue SET namespace = 'ax-system' WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system';
UPDATE job_failures SET namespace = 'ax-system' WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system';
UPDATE job_keys SET namespace = 'ax-system' WHERE job_key LIKE 'alert:%' AND namespace <> 'ax-system';
