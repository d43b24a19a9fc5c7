-- When a schedule's definition (trigger, job, policies) was last set: its creation or its last update, not its fires
-- (updated_at moves with every fire). The CRON_RUNAWAY alert rule reads schedules defined within its window by this
-- index.
ALTER TABLE schedules ADD COLUMN defined_at BIGINT NOT NULL DEFAULT 0;
UPDATE schedules SET defined_at = created_at;
CREATE INDEX idx_schedules_defined ON schedules (defined_at);
