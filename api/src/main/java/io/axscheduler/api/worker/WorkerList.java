package io.axscheduler.api.worker;

import java.util.List;

public record WorkerList(List<WorkerView> items) {}
