package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

/** The serializer answers as Axon's does, the type of a known name from memory. */
class KnownTypesSerializerTest {

    record Fired(String scheduleId, long fireTime) {}

    private final KnownTypesSerializer serializer = new KnownTypesSerializer(JacksonSerializer.builder());

    @Test
    void a_payload_reads_back_as_it_was_written_every_time() {
        Fired fired = new Fired("s-1", 42);
        SerializedObject<byte[]> written = serializer.serialize(fired, byte[].class);
        for (int i = 0; i < 3; i++) {
            Fired read = serializer.deserialize(written);
            assertThat(read).isEqualTo(fired);
        }
        assertThat(serializer.classForType(written.getType())).isEqualTo(Fired.class);
    }

    @Test
    void the_empty_type_is_void_and_an_unknown_name_stays_unknown() {
        assertThat(serializer.classForType(SimpleSerializedType.emptyType())).isEqualTo(Void.class);
        SimpleSerializedType unknown = new SimpleSerializedType("io.axscheduler.NoSuchEvent", null);
        assertThat(serializer.classForType(unknown)).isEqualTo(UnknownSerializedType.class);
        assertThat(serializer.classForType(unknown)).isEqualTo(UnknownSerializedType.class);
        Object read = serializer.deserialize(new SimpleSerializedObject<>("{}".getBytes(), byte[].class, unknown));
        assertThat(read).isInstanceOf(UnknownSerializedType.class);
    }

    @Test
    void it_names_types_as_axons_serializer_does() {
        JacksonSerializer axons = JacksonSerializer.builder().build();
        Fired fired = new Fired("s-1", 42);
        assertThat(serializer.typeForClass(Fired.class)).isEqualTo(axons.typeForClass(Fired.class));
        assertThat(serializer.serialize(fired, byte[].class).getData())
                .isEqualTo(axons.serialize(fired, byte[].class).getData());
    }
}
