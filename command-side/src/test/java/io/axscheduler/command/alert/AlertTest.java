package io.axscheduler.command.alert;

import io.axscheduler.api.alert.AlertRaised;
import io.axscheduler.api.alert.AlertResolved;
import io.axscheduler.api.alert.AlertType;
import io.axscheduler.api.alert.RaiseAlert;
import io.axscheduler.api.alert.ResolveAlert;
import java.util.List;
import java.util.Map;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AlertTest {

    static final AlertRaised RAISED = new AlertRaised(
            "a-1",
            "stalled",
            AlertType.SCANNER_STALLED,
            "node-1",
            "stalled",
            Map.of(),
            List.of("hook"),
            true,
            "team-a");

    private FixtureConfiguration<Alert> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Alert.class);
    }

    @Test
    void raising_records_who_is_told() {
        fixture.givenNoPriorActivity()
                .when(new RaiseAlert(
                        "a-1",
                        "stalled",
                        AlertType.SCANNER_STALLED,
                        "node-1",
                        "stalled",
                        Map.of(),
                        List.of("hook"),
                        true,
                        "team-a"))
                .expectEvents(RAISED);
    }

    @Test
    void resolving_tells_the_channels_the_raise_told() {
        fixture.given(RAISED)
                .when(new ResolveAlert("a-1", "cleared"))
                .expectEvents(new AlertResolved(
                        "a-1", "stalled", AlertType.SCANNER_STALLED, "node-1", "cleared", List.of("hook"), true));
    }

    @Test
    void resolving_a_resolved_alert_changes_nothing() {
        fixture.given(
                        RAISED,
                        new AlertResolved(
                                "a-1",
                                "stalled",
                                AlertType.SCANNER_STALLED,
                                "node-1",
                                "cleared",
                                List.of("hook"),
                                true))
                .when(new ResolveAlert("a-1", "again"))
                .expectNoEvents();
    }
}
