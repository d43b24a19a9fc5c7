-- Other nodes read a node's in-process job types from its pools (HoldBack.TAKEN_BY_SOMEONE: a job of a type no node
-- runs and no worker took is given up after no-worker-timeout). Pools longer than 8,000 characters were reported as
-- none, which would have made those types look unrun; the column now holds them all.
ALTER TABLE ax_nodes MODIFY pools MEDIUMTEXT NOT NULL;
