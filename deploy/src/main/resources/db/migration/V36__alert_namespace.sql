-- The namespace an alert's rule was narrowed to when it raised it: the alert names that namespace's jobs, schedules
-- and errors, so its viewers see it, whatever the rule is changed to later. NULL: a rule of the whole cluster (an
-- admin's to see). Alerts raised before this column take their rule's namespace as it stands at the upgrade; those
-- of a rule removed since stay NULL.
ALTER TABLE alerts ADD COLUMN namespace VARCHAR(100);

UPDATE alerts a JOIN alert_rules r ON r.name = a.rule
SET a.namespace = JSON_UNQUOTE(JSON_EXTRACT(r.filter_json, '$.namespace'))
WHERE JSON_EXTRACT(r.filter_json, '$.namespace') IS NOT NULL
  AND JSON_TYPE(JSON_EXTRACT(r.filter_json, '$.namespace')) = 'STRING';

-- a viewer's alert list reads its namespaces' alerts newest first
CREATE INDEX idx_alerts_namespace ON alerts (namespace, raised_at);
