package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The default node id names the machine even where no one exported {@code HOSTNAME} (a plain shell, systemd). */
class NodeNameTest {

    @Test
    void the_machine_is_named_by_the_kernels_host_name() throws Exception {
        String name = AxSchedulerApplication.machineName();
        assertThat(name).isNotBlank().isNotEqualTo("localhost");
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        if (Files.exists(kernel))
            assertThat(name).isEqualTo(Files.readString(kernel).trim());
    }

    @Test
    void the_host_name_fills_the_node_ids_placeholder_unless_set() {
        String before = System.getProperty("HOSTNAME");
        try {
            System.clearProperty("HOSTNAME");
            AxSchedulerApplication.nameTheHost();
            String exported = System.getenv("HOSTNAME");
            if (exported == null || exported.isBlank())
                assertThat(System.getProperty("HOSTNAME")).isEqualTo(AxSchedulerApplication.machineName());
            else assertThat(System.getProperty("HOSTNAME")).isNull();
            System.setProperty("HOSTNAME", "given");
            AxSchedulerApplication.nameTheHost();
            assertThat(System.getProperty("HOSTNAME")).isEqualTo("given");
        } finally {
            if (before == null) System.clearProperty("HOSTNAME");
            else System.setProperty("HOSTNAME", before);
        }
    }
}
