package io.axscheduler.deploy;

import io.axscheduler.api.Causes;
import io.axscheduler.api.problem.AlreadyExistsException;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.JsonRefusals;
import io.axscheduler.api.problem.KeyReusedException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.scheduler.DatabaseUnreachable;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Every refusal as RFC 7807 problem+json; validation failures carry {@code errors: [{field, message}]}. */
@RestControllerAdvice
class ProblemHandlers extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandlers.class);
    /** What a 503 asks a client to wait: about a connection timeout and a retry of the pool. */
    static final int RETRY_AFTER_S = 5;

    @ExceptionHandler(InvalidRequestException.class)
    ProblemDetail invalid(InvalidRequestException e) {
        return withErrors(e.getMessage(), e.errors());
    }

    /** An idempotency key sent again with another request: 422, as the IETF's Idempotency-Key draft answers it. */
    @ExceptionHandler(KeyReusedException.class)
    ProblemDetail keyReused(KeyReusedException e) {
        ProblemDetail problem = withErrors(e.getMessage(), e.errors());
        problem.setStatus(HttpStatus.UNPROCESSABLE_ENTITY);
        problem.setTitle("Key reused");
        problem.setProperty(e.idField(), e.id());
        return problem;
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return titled(HttpStatus.NOT_FOUND, "Not found", e.getMessage());
    }

    @ExceptionHandler(ForbiddenException.class)
    ProblemDetail forbidden(ForbiddenException e) {
        return titled(HttpStatus.FORBIDDEN, "Forbidden", e.getMessage());
    }

    /** Spring Security's own refusals inside a controller: a 403 answer, not an internal error. */
    @ExceptionHandler(org.springframework.security.access.AccessDeniedException.class)
    ProblemDetail denied(org.springframework.security.access.AccessDeniedException e) {
        return titled(HttpStatus.FORBIDDEN, "Forbidden", "not allowed");
    }

    @ExceptionHandler(IllegalTransitionException.class)
    ProblemDetail conflict(IllegalTransitionException e) {
        return titled(HttpStatus.CONFLICT, "Illegal transition", e.getMessage());
    }

    @ExceptionHandler(AlreadyExistsException.class)
    ProblemDetail taken(AlreadyExistsException e) {
        return titled(HttpStatus.CONFLICT, "Already exists", e.getMessage());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<?> unexpected(Exception e, HttpServletRequest request, HttpServletResponse response)
            throws java.io.IOException {
        if (databaseUnreachable(e)) {
            log.warn("request refused, the database is unreachable: {}", e.toString());
            if (OutagePage.wanted(request)) {
                // written as the session filter writes it; a handler given the response has answered by returning null
                OutagePage.write(request, response);
                return null;
            }
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_S))
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(unreachable());
        }
        if (lostRace(e)) {
            // another node wrote the same job or schedule at the same moment: nothing of this request was written
            log.info("request refused, it met another writer of the same aggregate: {}", e.toString());
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "another node changed the same job or schedule at the same moment; nothing was written, try again");
            problem.setTitle("Service unavailable");
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, "1")
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem);
        }
        log.error("request failed", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "the request failed inside the scheduler; nothing was half-written (see the node's log)");
        problem.setTitle("Internal error");
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    private static boolean lostRace(Throwable e) {
        return Causes.any(e, org.axonframework.modelling.command.ConcurrencyException.class);
    }

    /** The 503 of an unreachable database, whichever layer answers it (with Retry-After: {@link #RETRY_AFTER_S}). */
    static ProblemDetail unreachable() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.SERVICE_UNAVAILABLE, "the database is unreachable; nothing was written, try again");
        problem.setTitle("Service unavailable");
        return problem;
    }

    /** The database is out of reach (see {@link DatabaseUnreachable}): a 503, not an internal error. */
    static boolean databaseUnreachable(Throwable e) {
        return DatabaseUnreachable.in(e);
    }

    /**
     * A body the strict JSON policy ({@link io.axscheduler.api.StrictJson}) refuses: named by its field where the
     * parser knows it, and told in words of the contract, never in Java class names.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        BodyLimit.TooLarge tooLarge = Causes.find(e, BodyLimit.TooLarge.class);
        if (tooLarge != null) {
            return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE)
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(BodyLimit.problem(tooLarge.maxBytes));
        }
        FieldError error = e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")
                ? new FieldError("body", "is required")
                : JsonRefusals.describe(e.getCause());
        return ResponseEntity.badRequest()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(withErrors(error.field() + ": " + error.message(), List.of(error)));
    }

    /**
     * Spring's own 400s (a parameter of the wrong type or missing, a bad header) carry {@code errors} naming what was
     * wrong, as every other 400 does.
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception e, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (status.value() == 400
                && body instanceof ProblemDetail problem
                && (problem.getProperties() == null || !problem.getProperties().containsKey("errors"))) {
            String field = "request";
            if (e instanceof TypeMismatchException mismatch && mismatch.getPropertyName() != null)
                field = mismatch.getPropertyName();
            else if (e instanceof MissingServletRequestParameterException missing) field = missing.getParameterName();
            else if (e instanceof MissingRequestHeaderException missing) field = missing.getHeaderName();
            problem.setProperty("errors", List.of(new FieldError(field, "is missing or not of the expected type")));
        }
        return super.handleExceptionInternal(e, body, headers, status, request);
    }

    private static ProblemDetail withErrors(String detail, List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle("Invalid request");
        problem.setProperty("errors", errors);
        return problem;
    }

    /** A problem of {@code status} titled {@code title}, saying {@code detail}. */
    private static ProblemDetail titled(HttpStatus status, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        return problem;
    }
}
