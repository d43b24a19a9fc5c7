package io.axscheduler.api.schedule;

/** A trigger that cannot be built, naming the trigger field at fault ({@code expression}, {@code timezone}, …). */
public class InvalidTriggerException extends IllegalArgumentException {

    private final String field;
    private final String reason;

    public InvalidTriggerException(String field, String reason) {
        super(field + " " + reason);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
