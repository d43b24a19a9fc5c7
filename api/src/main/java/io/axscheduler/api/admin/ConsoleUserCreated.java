package io.axscheduler.api.admin;

import io.axscheduler.api.security.Grant;
import java.util.List;

public record ConsoleUserCreated(String username, List<Grant> grants) {}
