package io.axscheduler.api.job;

/**
 * A claimed attempt was given back before it started (see {@link HandBackReason}): the job is WAITING again and no
 * retry was used. A claim whose lease runs out instead is {@link JobTimedOut} with phase CLAIM.
 */
public record JobHandedBack(String jobId, int attempt, HandBackReason reason) {}
