-- The process a registration came from, as the worker library names it (X-Ax-Worker-Instance; null from other
-- clients and older libraries): a registration replacing another at its address tells a second process sharing the
-- address (remembered as taken out, so its heartbeats are answered 410) from the same process registering again.
ALTER TABLE workers ADD COLUMN instance_id VARCHAR(64) NULL;
