-- Why the last failed push to a worker failed, and on which node: a worker cooled down after failed pushes is
-- explained with it ("why didn't my job run?"), so that a node whose allow-list lacks the worker's address, or a
-- worker answering 401 to unsigned-looking pushes, is not read as a sick worker. Nullable and added at the end: in place
-- on MariaDB 10.3+ and MySQL 8.0.12+.
ALTER TABLE workers ADD COLUMN last_push_error VARCHAR(512) NULL;
