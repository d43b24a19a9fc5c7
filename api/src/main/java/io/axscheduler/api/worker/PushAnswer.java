package io.axscheduler.api.worker;

/** A worker's immediate answer to a push; {@code outcome} is set when the attempt already ended there. */
public record PushAnswer(PushState state, JobCallback outcome) {}
