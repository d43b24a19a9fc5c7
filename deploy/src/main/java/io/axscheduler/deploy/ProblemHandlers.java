package io.axscheduler.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Every refusal as RFC 7807 problem+json; validation failures carry {@code errors: [{field, message}]}. */
@RestControllerAdvice
class ProblemHandlers extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandlers.class);

    @ExceptionHandler(InvalidRequestException.class)
    ProblemDetail invalid(InvalidRequestException e) {
        return withErrors(e.getMessage(), e.errors());
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setTitle("Not found");
        return problem;
    }

    @ExceptionHandler(ForbiddenException.class)
    ProblemDetail forbidden(ForbiddenException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
        problem.setTitle("Forbidden");
        return problem;
    }

    /** Spring Security's own refusals inside a controller: a 403 answer, not an internal error. */
    @ExceptionHandler(org.springframework.security.access.AccessDeniedException.class)
    ProblemDetail denied(org.springframework.security.access.AccessDeniedException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, "not allowed");
        problem.setTitle("Forbidden");
        return problem;
    }

    @ExceptionHandler(IllegalTransitionException.class)
    ProblemDetail conflict(IllegalTransitionException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Illegal transition");
        return problem;
    }

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("request failed", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "the request failed inside the scheduler; nothing was half-written (see the node's log)");
        problem.setTitle("Internal error");
        return problem;
    }

    /** Malformed JSON, or a value of the wrong JSON type: name the field where Jackson knows it. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String field = "body";
        String message = "is not readable JSON";
        if (e.getCause() instanceof JsonMappingException mapping
                && !mapping.getPath().isEmpty()) {
            field = mapping.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."))
                    .replace(".[", "[");
            message = "has the wrong type";
        } else if (e.getCause() instanceof JsonProcessingException parse) {
            message = "is not valid JSON: " + parse.getOriginalMessage();
        } else if (e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")) {
            message = "is required";
        }
        return ResponseEntity.badRequest()
                .body(withErrors("malformed request body", List.of(new FieldError(field, message))));
    }

    private static ProblemDetail withErrors(String detail, List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle("Invalid request");
        problem.setProperty("errors", errors);
        return problem;
    }
}
