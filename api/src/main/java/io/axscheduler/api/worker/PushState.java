package io.axscheduler.api.worker;

/** What a worker knows of a pushed attempt when it answers the push. */
public enum PushState {
    /** Taken: it runs on the worker's pool, the outcome comes as a callback. */
    ACCEPTED,
    /** Pushed before and still running: not started again. */
    RUNNING,
    /** Pushed before and already ended: not run again; the outcome is in the answer and is called back again. */
    DONE,
    /** The pool is full: nothing was taken, push it elsewhere. */
    BUSY
}
