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
     * The key in {@code field} first made the {@code kind} ({@code job}, {@code schedule}) {@code id}, which the
     * problem names as a property ({@code jobId}, {@code scheduleId}), so a client that changed its request can find
     * what its key names.
     */
    public KeyReusedException(String field, String kind, String id) {
        this(
                field,
                "was sent before with a different request, which made " + kind + " " + id
                        + ": a key names one request; send that request again, or this one with a new key",
                kind + "Id",
                id);
    }

    private KeyReusedException(String field, String message, String idField, String id) {
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
