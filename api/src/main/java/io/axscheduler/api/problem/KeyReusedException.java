package io.axscheduler.api.problem;

import java.util.List;

/**
 * An idempotency key ({@code jobKey}, {@code scheduleKey}) sent again with a request other than the one it was first
 * sent with: answered 422 naming the key's field, and nothing written. A key names one request; answering the
 * second request with what the first one made would tell its sender that work it did not ask for is its own.
 */
public class KeyReusedException extends InvalidRequestException {

    private final String idField;
    private final String id;

    /**
     * {@code idField} and {@code id}: what the key made ({@code jobId} or {@code scheduleId}), answered as a property
     * of the problem, so a client that changed its request can find what its key names.
     */
    public KeyReusedException(String field, String message, String idField, String id) {
        super(List.of(new FieldError(field, message)));
        this.idField = idField;
        this.id = id;
    }

    /** The same refusal with its field under {@code path} (a batch's {@code jobs[3]}). */
    public KeyReusedException under(String path) {
        FieldError error = errors().get(0);
        return new KeyReusedException(path + "." + error.field(), error.message(), idField, id);
    }

    public String idField() {
        return idField;
    }

    public String id() {
        return id;
    }
}
