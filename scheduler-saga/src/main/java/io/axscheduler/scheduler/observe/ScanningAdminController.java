package io.axscheduler.scheduler.observe;

import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/scanning/pause|resume}: stops and restarts this node's job claims and schedule fires
 * without a restart (for maintenance, and to see the stalled-scanner alert and ax_schedules_behind at work). The node
 * keeps serving the API and running what it holds; its row of ax_nodes says at once that it no longer scans.
 */
@RestController
public class ScanningAdminController {

    private final ScanDueJobs jobs;
    private final ScanSchedules schedules;
    private final ReportNodeStatus status;
    private final NodeMetrics metrics;

    public ScanningAdminController(
            ScanDueJobs jobs, ScanSchedules schedules, ReportNodeStatus status, NodeMetrics metrics) {
        this.jobs = jobs;
        this.schedules = schedules;
        this.status = status;
        this.metrics = metrics;
    }

    @PostMapping("/api/v1/admin/scanning/pause")
    public Map<String, Object> pause() {
        jobs.pauseScanning();
        schedules.pauseScanning();
        status.report();
        return Map.of("node", metrics.node(), "scanning", false);
    }

    @PostMapping("/api/v1/admin/scanning/resume")
    public Map<String, Object> resume() {
        jobs.resumeScanning();
        schedules.resumeScanning();
        status.report();
        return Map.of("node", metrics.node(), "scanning", true);
    }
}
