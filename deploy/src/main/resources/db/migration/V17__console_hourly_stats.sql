-- The console's outcomes per hour (hour_at the start of the hour), written by the console-stats processor beside
-- the per-minute ones (V14): the day's chart and the day's failures read 24 hours of it instead of 1,440 minutes,
-- which with ten types was 43,000 rows a page view. Filled for the past by a rebuild
-- (POST /api/v1/admin/projections/console-stats/rebuild).
CREATE TABLE stats_outcomes_hourly (
    hour_at   BIGINT       NOT NULL,
    namespace VARCHAR(100) NOT NULL,
    job_type  VARCHAR(100) NOT NULL,
    outcome   VARCHAR(20)  NOT NULL,
    jobs      BIGINT       NOT NULL,
    PRIMARY KEY (hour_at, namespace, job_type, outcome)
) ENGINE = InnoDB;
