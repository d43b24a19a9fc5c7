package io.axscheduler.api.admin;

import io.axscheduler.api.security.Grant;
import java.time.Instant;
import java.util.List;

/** An API key was made (the actor in the metadata made it); {@code expiresAt} null: it does not expire. */
public record ApiKeyCreated(String keyId, String name, List<Grant> grants, Instant expiresAt) {}
