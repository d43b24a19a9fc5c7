package io.axscheduler.deploy;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A node that will not start on the database it was given (cannot connect, a schema newer than it knows, sessions
 * that number rows in steps). Spring Boot prints it as its own headline, "APPLICATION FAILED TO START", instead of at
 * the end of a chain of the bean names that were being made when it was found.
 */
final class StartRefused extends IllegalStateException {

    private final String action;

    StartRefused(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    /** Registered in {@code META-INF/spring.factories}. */
    static final class Analyzer extends AbstractFailureAnalyzer<StartRefused> {
        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, StartRefused cause) {
            return new FailureAnalysis(cause.getMessage(), cause.action, cause);
        }
    }
}
