-- 1 when the node reads an aggregate's events past gaps in their sequence numbers (see JdbcEventTable). The retention
-- deletes schedules' old fire records, which leaves such gaps, only while no node of an older release (0) is known:
-- an older node would stop reading a schedule at the first gap.
ALTER TABLE ax_nodes ADD COLUMN reads_gaps TINYINT NOT NULL DEFAULT 0;
