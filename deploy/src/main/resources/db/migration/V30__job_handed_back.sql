-- No table changes. This release adds the event JobHandedBack, which an older build cannot read (it would take such a
-- job for still claimed and refuse every claim of it): this migration makes the schema guard refuse to start an older
-- build on a database this release has used.
DO 0;
