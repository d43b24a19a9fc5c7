package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

/** Metadata read through {@link MetaDataReader} is what Axon's own deserializer reads, and the mapper asks it first. */
class MetaDataReaderTest {

    @Test
    void reads_what_axons_deserializer_reads() {
        JacksonSerializer axons =
                JacksonSerializer.builder().objectMapper(new ObjectMapper()).build();
        JacksonSerializer ours = withReader(
                JacksonSerializer.builder().objectMapper(new ObjectMapper()).build());
        Map<String, Object> values = new HashMap<>();
        values.put("actor", "bob");
        values.put("attempt", 3);
        values.put("ratio", 0.5);
        values.put("nothing", null);
        values.put("nested", Map.of("list", List.of(1, "two", Map.of("three", true))));
        MetaData metaData = MetaData.from(values);

        for (MetaData each : List.of(metaData, MetaData.emptyInstance())) {
            SerializedObject<byte[]> bytes = axons.serialize(each, byte[].class);
            MetaData read = ours.deserialize(bytes);
            assertThat(read).isEqualTo(axons.deserialize(bytes)).isEqualTo(each);
        }
    }

    @Test
    void registered_after_axons_serializer_is_built_it_is_the_mappers_metadata_deserializer() throws Exception {
        ObjectMapper mapper = withReader(JacksonSerializer.builder()
                        .objectMapper(new ObjectMapper())
                        .build())
                .getObjectMapper();

        assertThat(metaDataDeserializerOf(mapper)).isInstanceOf(MetaDataReader.class);
    }

    static Object metaDataDeserializerOf(ObjectMapper mapper) throws Exception {
        DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createInstance(mapper.getDeserializationConfig(), null, null);
        return context.findRootValueDeserializer(mapper.constructType(MetaData.class));
    }

    private static JacksonSerializer withReader(JacksonSerializer serializer) {
        serializer.getObjectMapper().registerModule(MetaDataReader.module());
        return serializer;
    }
}
