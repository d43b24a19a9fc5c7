package io.axscheduler.scheduler.observe;

import io.axscheduler.api.admin.RecordScanningChange;
import io.axscheduler.api.security.Caller;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/scanning/pause|resume}: stops and restarts this node's job claims and schedule fires
 * without a restart (for maintenance, and to see the stalled-scanner alert and ax_schedules_behind at work). The node
 * keeps serving the API and running what it holds; its row of ax_nodes says at once that it no longer scans. Each
 * request is an event of the admin trail (ScanningPaused, ScanningResumed, with the actor), stored before it takes
 * effect: a request that cannot be recorded (the database out of reach) changes nothing. Only this node writes its
 * stream, one request at a time.
 */
@RestController
public class ScanningAdminController {

    private final ScanDueJobs jobs;
    private final ScanSchedules schedules;
    private final ReportNodeStatus status;
    private final NodeMetrics metrics;
    private final SchedulerCommands commands;

    public ScanningAdminController(
            ScanDueJobs jobs,
            ScanSchedules schedules,
            ReportNodeStatus status,
            NodeMetrics metrics,
            SchedulerCommands commands) {
        this.commands = commands;
        this.jobs = jobs;
        this.schedules = schedules;
        this.status = status;
        this.metrics = metrics;
    }

    @PostMapping("/api/v1/admin/scanning/pause")
    public synchronized Map<String, Object> pause(
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        record(false, caller);
        jobs.pauseScanning();
        schedules.pauseScanning();
        status.report();
        return Map.of("node", metrics.node(), "scanning", false);
    }

    @PostMapping("/api/v1/admin/scanning/resume")
    public synchronized Map<String, Object> resume(
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        record(true, caller);
        jobs.resumeScanning();
        schedules.resumeScanning();
        status.report();
        return Map.of("node", metrics.node(), "scanning", true);
    }

    private void record(boolean scanning, Caller by) {
        commands.sendAndWaitFor(by, new RecordScanningChange(metrics.node(), scanning), Map.of());
    }
}
