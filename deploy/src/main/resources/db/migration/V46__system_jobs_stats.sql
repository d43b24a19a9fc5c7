-- The console's outcome counts of the scheduler's own jobs (ax-alert deliveries) made before V45 are under the
-- namespace they were made in (default), where default's viewers saw them in the day's failures by type: moved to
-- ax-system, added to any count already there for the same minute or hour. The start-lag counts are per namespace
-- only and stay as they are (they name no job type).
INSERT INTO stats_outcomes (minute_at, namespace, job_type, outcome, jobs)
SELECT moved.minute_at, 'ax-system', moved.job_type, moved.outcome, moved.jobs
FROM (SELECT minute_at, job_type, outcome, SUM(jobs) AS jobs
      FROM stats_outcomes
      WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system'
      GROUP BY minute_at, job_type, outcome) moved
ON DUPLICATE KEY UPDATE jobs = stats_outcomes.jobs + VALUES(jobs);
DELETE FROM stats_outcomes WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system';

INSERT INTO stats_outcomes_hourly (hour_at, namespace, job_type, outcome, jobs)
SELECT moved.hour_at, 'ax-system', moved.job_type, moved.outcome, moved.jobs
FROM (SELECT hour_at, job_type, outcome, SUM(jobs) AS jobs
      FROM stats_outcomes_hourly
      WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system'
      GROUP BY hour_at, job_type, outcome) moved
ON DUPLICATE KEY UPDATE jobs = stats_outcomes_hourly.jobs + VALUES(jobs);
DELETE FROM stats_outcomes_hourly WHERE job_type LIKE 'ax-%' AND namespace <> 'ax-system';
