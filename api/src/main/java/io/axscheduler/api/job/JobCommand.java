package io.axscheduler.api.job;

/** A command the node sends to one job on its own behalf, which can travel in a {@link JobCommandBatch}. */
public interface JobCommand {

    String jobId();
}
