-- every job, schedule and worker belongs to a namespace; rows made before namespaces existed are in 'default'
ALTER TABLE job_queue ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';
CREATE INDEX job_queue_namespace ON job_queue (namespace, created_at);

ALTER TABLE schedules ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';
CREATE INDEX schedules_namespace ON schedules (namespace, created_at);

-- a worker belongs to its app's namespace and may be heartbeat or removed only by the principal that registered it
ALTER TABLE workers ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';
ALTER TABLE workers ADD COLUMN registered_by VARCHAR(200) NULL;
