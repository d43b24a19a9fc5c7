-- What each node reports about itself every few seconds: whether it scans, when its scans last completed, and its
-- pools. Explanations ("no node is scanning", "every pool of the type is full") and the stalled-scanner alert read
-- it on any node. Operational state, not history: rows are overwritten in place. Instants are epoch milliseconds of
-- the database's clock.
CREATE TABLE ax_nodes (
    node_id           VARCHAR(255)  NOT NULL,
    -- 1 while scanning is switched on and not paused on the node
    scanning          TINYINT       NOT NULL,
    last_scan_at      BIGINT        NOT NULL,
    last_fire_pass_at BIGINT        NOT NULL,
    -- when the node last wrote this row; a node silent for a while is gone
    reported_at       BIGINT        NOT NULL,
    started_at        BIGINT        NOT NULL,
    -- JSON: job type -> [threads, running], the node's in-process pools
    pools             VARCHAR(8000) NOT NULL,
    PRIMARY KEY (node_id)
) ENGINE = InnoDB;
