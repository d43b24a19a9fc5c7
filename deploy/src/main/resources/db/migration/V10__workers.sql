-- Remote workers. Heartbeats and pushes update these rows in place: they are operational state, not history, so
-- they are not events. Instants are epoch milliseconds of the database's clock (NOW(3)), like job_queue.

CREATE TABLE workers (
    worker_id            VARCHAR(120)  NOT NULL,
    app                  VARCHAR(100)  NOT NULL,
    address              VARCHAR(500)  NOT NULL,
    -- comma-separated, as registered; the registry splits it
    job_types            VARCHAR(4000) NOT NULL,
    capacity             INT           NOT NULL,
    -- the callback secret; a worker that is removed loses it, and its late callbacks are refused
    secret               VARCHAR(100)  NOT NULL,
    registered_at        BIGINT        NOT NULL,
    last_heartbeat       BIGINT        NOT NULL,
    -- pushes in flight: raised on each accepted push, lowered on each callback, set by every heartbeat
    in_flight            INT           NOT NULL DEFAULT 0,
    last_used            BIGINT        NOT NULL DEFAULT 0,
    consecutive_failures INT           NOT NULL DEFAULT 0,
    cooling_until        BIGINT        NOT NULL DEFAULT 0,
    PRIMARY KEY (worker_id),
    INDEX idx_workers_heartbeat (last_heartbeat)
) ENGINE = InnoDB;

-- One row per pushed attempt (per shard of a broadcast): which worker runs it, and how it ended. A callback is
-- applied only to a PUSHED row of its own worker, so duplicates and late callbacks change nothing; the shards of a
-- broadcast are locked together so exactly one callback sees the last shard end.
CREATE TABLE worker_dispatches (
    job_id       VARCHAR(64)   NOT NULL,
    attempt      INT           NOT NULL,
    shard_index  INT           NOT NULL,
    shard_total  INT           NOT NULL,
    worker_id    VARCHAR(120)  NOT NULL,
    -- PUSHED, SUCCEEDED, FAILED, LOST
    status       VARCHAR(20)   NOT NULL,
    result       VARCHAR(2000),
    error        VARCHAR(2000),
    duration_ms  BIGINT,
    pushed_at    BIGINT        NOT NULL,
    PRIMARY KEY (job_id, attempt, shard_index),
    INDEX idx_worker_dispatches_worker (worker_id, status)
) ENGINE = InnoDB;
