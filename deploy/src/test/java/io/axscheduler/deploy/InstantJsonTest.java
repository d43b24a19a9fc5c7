package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

/** The node's mapper writes every instant, wherever it sits, as API.md's UTC form with exactly three fraction digits. */
class InstantJsonTest {

    record Event(Instant at, List<Instant> times, Map<String, Instant> byName) {}

    private final ObjectMapper mapper = mapper();

    private static ObjectMapper mapper() {
        Jackson2ObjectMapperBuilder builder = new Jackson2ObjectMapperBuilder();
        new NodeSetup().instantsWithMilliseconds().customize(builder);
        return builder.build();
    }

    @Test
    void a_property_a_list_element_and_a_map_value_read_alike() throws Exception {
        Instant at = Instant.parse("2026-12-04T05:06:07.123456789Z");
        String json = mapper.writeValueAsString(new Event(at, List.of(at), Map.of("a", at)));

        assertThat(json)
                .isEqualTo("{\"at\":\"2026-12-04T05:06:07.123Z\",\"times\":[\"2026-12-04T05:06:07.123Z\"],"
                        + "\"byName\":{\"a\":\"2026-12-04T05:06:07.123Z\"}}");
    }

    @Test
    void whole_seconds_keep_three_digits_and_read_back() throws Exception {
        Instant at = Instant.parse("1970-01-01T00:00:00Z");
        String json = mapper.writeValueAsString(new Event(at, List.of(), Map.of()));

        assertThat(json).startsWith("{\"at\":\"1970-01-01T00:00:00.000Z\"");
        assertThat(mapper.readValue(json, Event.class).at()).isEqualTo(at);
    }

    @Test
    void reads_its_own_form_any_fraction_and_what_jackson_reads_besides() throws Exception {
        assertThat(read("\"2026-12-04T05:06:07.123Z\"")).isEqualTo(Instant.parse("2026-12-04T05:06:07.123Z"));
        assertThat(read("\"2026-12-04T05:06:07Z\"")).isEqualTo(Instant.parse("2026-12-04T05:06:07Z"));
        assertThat(read("\"2026-12-04T05:06:07.123456789Z\""))
                .isEqualTo(Instant.parse("2026-12-04T05:06:07.123456789Z"));
        assertThat(read("\"2026-12-04T06:06:07.123+01:00\"")).isEqualTo(Instant.parse("2026-12-04T05:06:07.123Z"));
        assertThat(read("1764824767.5")).isEqualTo(Instant.ofEpochSecond(1764824767, 500_000_000));
        assertThat(read("null")).isNull();
    }

    @Test
    void a_malformed_instant_is_refused_as_jackson_refuses_it() {
        assertThatThrownBy(() -> read("\"2026-13-04T05:06:07.123Z\"")).isInstanceOf(InvalidFormatException.class);
    }

    private Instant read(String value) throws Exception {
        return mapper.readValue("{\"at\":" + value + ",\"times\":[],\"byName\":{}}", Event.class)
                .at();
    }
}
