package io.axscheduler.api.schedule;

/** Why a schedule fired: its trigger came due, a fire held back by the QUEUE overlap policy was let go, or an operator asked. */
public enum FireKind {
    SCHEDULED,
    QUEUED,
    MANUAL
}
