package io.axscheduler.query.admin;

/** What a rebuild replayed: job events handled, and rows job_queue holds afterwards. */
public record RebuildResult(long events, long jobs) {}
