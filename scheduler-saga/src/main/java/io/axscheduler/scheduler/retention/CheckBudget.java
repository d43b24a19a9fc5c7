package io.axscheduler.scheduler.retention;

/**
 * What one retention check may still delete and read, so a backlog is worked off over several checks instead of in
 * one long one; and what it deleted.
 */
final class CheckBudget {

    long deletes;
    long reads;
    long deleted;

    CheckBudget(long deletes, long reads) {
        this.deletes = deletes;
        this.reads = reads;
    }

    boolean left() {
        return deletes > 0 && reads > 0;
    }
}
