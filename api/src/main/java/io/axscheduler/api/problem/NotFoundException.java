package io.axscheduler.api.problem;

/** An id that names nothing: answered 404. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String kind, String id) {
        super(kind + " " + id + " does not exist");
    }
}
