-- V45 compared job types and keys as the columns' collation does, without regard to case: a team's own job types
-- spelt AX-… or Ax-… (only the lower-case ax- prefix is the scheduler's) were moved to ax-system with the deliveries,
-- where the team no longer saw them and no worker of the team was pushed them. Each goes back to the namespace its
-- JobCreated event names (default for an event from before namespaces), with its failures and its key. Comparisons
-- on these prefixes are binary from here on.
UPDATE job_queue q
    JOIN DomainEventEntry e ON e.aggregateIdentifier = q.job_id AND e.sequenceNumber = 0
SET q.namespace = CASE
    WHEN JSON_TYPE(JSON_EXTRACT(CONVERT(e.payload USING utf8mb4), '$.namespace')) = 'STRING'
        THEN JSON_UNQUOTE(JSON_EXTRACT(CONVERT(e.payload USING utf8mb4), '$.namespace'))
    ELSE 'default' END
WHERE q.namespace = 'ax-system' AND CAST(q.job_type AS BINARY) NOT LIKE 'ax-%';
UPDATE job_failures f
    JOIN job_queue q ON q.job_id = f.job_id
SET f.namespace = q.namespace
WHERE f.namespace = 'ax-system' AND CAST(f.job_type AS BINARY) NOT LIKE 'ax-%';
UPDATE IGNORE job_keys k
    JOIN job_queue q ON q.job_id = k.job_id
SET k.namespace = q.namespace
WHERE k.namespace = 'ax-system' AND CAST(k.job_key AS BINARY) NOT LIKE 'alert:%';

-- V45's moves with binary comparisons: nothing to do right after V45, but these statements are also what to run by
-- hand after a rolling upgrade, for the deliveries old nodes made in default meanwhile (docs/operations.md).
UPDATE job_queue SET namespace = 'ax-system'
WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system';
UPDATE job_failures SET namespace = 'ax-system'
WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system';
UPDATE IGNORE job_keys SET namespace = 'ax-system'
WHERE CAST(job_key AS BINARY) LIKE 'alert:%' AND namespace <> 'ax-system';

-- The console's outcome counts of the scheduler's own jobs (ax-alert deliveries) made before V45 are under the
-- namespace they were made in (default), where default's viewers saw them in the day's failures by type: moved to
-- ax-system, added to any count already there for the same minute or hour. The start-lag counts are per namespace
-- only and stay as they are (they name no job type).
INSERT INTO stats_outcomes (minute_at, namespace, job_type, outcome, jobs)
SELECT moved.minute_at, 'ax-system', moved.job_type, moved.outcome, moved.jobs
FROM (SELECT minute_at, job_type, outcome, SUM(jobs) AS jobs
      FROM stats_outcomes
      WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system'
      GROUP BY minute_at, job_type, outcome) moved
ON DUPLICATE KEY UPDATE jobs = stats_outcomes.jobs + VALUES(jobs);
DELETE FROM stats_outcomes WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system';

INSERT INTO stats_outcomes_hourly (hour_at, namespace, job_type, outcome, jobs)
SELECT moved.hour_at, 'ax-system', moved.job_type, moved.outcome, moved.jobs
FROM (SELECT hour_at, job_type, outcome, SUM(jobs) AS jobs
      FROM stats_outcomes_hourly
      WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system'
      GROUP BY hour_at, job_type, outcome) moved
ON DUPLICATE KEY UPDATE jobs = stats_outcomes_hourly.jobs + VALUES(jobs);
DELETE FROM stats_outcomes_hourly WHERE CAST(job_type AS BINARY) LIKE 'ax-%' AND namespace <> 'ax-system';
