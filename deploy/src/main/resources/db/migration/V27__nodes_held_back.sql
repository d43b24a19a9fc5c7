-- The job types a node's schedule scan holds back (paces: see the schedule fire's step 4 in docs/architecture.md),
-- comma-separated. Pacing is each node's own state; explanations read it here to say a fire is held back while the
-- type's oldest job waits less than the bound, as it does once paced.
ALTER TABLE ax_nodes ADD COLUMN held_back VARCHAR(2000) NOT NULL DEFAULT '';
