package io.axscheduler.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FormatsTest {

    private final ConsoleModel.Formats fmt = new ConsoleModel.Formats(new ObjectMapper());

    @Test
    void a_schedules_next_fire_is_also_told_on_its_zones_wall_clock() {
        Instant at = Instant.parse("2026-12-06T22:30:00Z");
        assertThat(fmt.at(at)).isEqualTo("2026-12-06 22:30:00.000");
        assertThat(fmt.inZone(at, "Asia/Kolkata")).isEqualTo("2026-12-07 04:00:00 Asia/Kolkata");
        assertThat(fmt.inZone(at, "UTC")).isEmpty();
        assertThat(fmt.inZone(at, null)).isEmpty();
        assertThat(fmt.inZone(null, "Asia/Kolkata")).isEmpty();
        assertThat(fmt.inZone(at, "Not/AZone")).isEmpty();
    }
}
