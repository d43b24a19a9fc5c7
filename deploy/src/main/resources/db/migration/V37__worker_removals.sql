-- Workers taken out by an admin, or with the API key that registered them: a heartbeat of such a worker id is
-- answered 410 naming who removed it and why, and the worker library stops taking jobs instead of registering
-- again under a new id (which undid the removal within a heartbeat). Rows older than a day are deleted as new ones
-- are written; instants are the database's clock in epoch milliseconds, as in `workers`.
CREATE TABLE worker_removals (
    worker_id     VARCHAR(120)  NOT NULL,
    namespace     VARCHAR(100)  NOT NULL,
    -- the principal that registered the worker: only it (or an admin) is told of the removal, others get 404
    registered_by VARCHAR(200),
    removed_by    VARCHAR(200)  NOT NULL,
    reason        VARCHAR(2000) NOT NULL,
    removed_at    BIGINT        NOT NULL,
    PRIMARY KEY (worker_id),
    INDEX idx_worker_removals_at (removed_at)
) ENGINE = InnoDB;
