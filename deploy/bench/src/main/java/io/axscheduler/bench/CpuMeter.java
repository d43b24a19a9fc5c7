package io.axscheduler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU of this JVM and of the database server, read from /proc (Linux; zero elsewhere), so a workload can report what
 * a unit of work costs the machine and not only how late it ran. The server is every {@code mariadbd} or {@code
 * mysqld} process on the machine: the benchmark expects the database it uses to be the only one that is busy.
 */
public final class CpuMeter {

    private static final long TICK_MS = 10; // USER_HZ is 100 on every Linux the benchmark runs on

    /** One reading: CPU ms of this JVM and of the servers, and when. */
    public record Reading(long jvmMs, long databaseMs, long nanos) {}

    private CpuMeter() {}

    public static Reading read() {
        return new Reading(processMs(Path.of("/proc/self/stat")), databaseMs(), System.nanoTime());
    }

    /**
     * Steady-state figures between two readings over {@code units} (fires or jobs run between them): ms of CPU per
     * unit for the JVM, the database and both, and the cores both kept busy on average.
     */
    public static void put(Map<String, Object> line, String prefix, Reading from, Reading to, long units) {
        if (units <= 0 || to.nanos <= from.nanos) return;
        double jvm = to.jvmMs - from.jvmMs, db = to.databaseMs - from.databaseMs;
        double seconds = (to.nanos - from.nanos) / 1e9;
        line.put(prefix + "_jvm_cpu_ms", round(jvm / units));
        line.put(prefix + "_db_cpu_ms", round(db / units));
        line.put(prefix + "_cpu_ms", round((jvm + db) / units));
        line.put(prefix + "_cores_busy", round((jvm + db) / 1000 / seconds));
        line.put(prefix + "_rate_per_s", round(units / seconds));
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static long databaseMs() {
        long total = 0;
        for (Path proc : databaseProcesses()) total += processMs(proc.resolve("stat"));
        return total;
    }

    private static List<Path> databaseProcesses() {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(p -> {
                        try {
                            String comm = Files.readString(p.resolve("comm")).trim();
                            if (comm.equals("mariadbd") || comm.equals("mysqld")) found.add(p);
                        } catch (IOException | RuntimeException gone) {
                            // a process that ended while listed
                        }
                    });
        } catch (IOException | RuntimeException notLinux) {
            return List.of();
        }
        return found;
    }

    /** utime + stime of a /proc/<pid>/stat, in ms; 0 when unreadable. */
    private static long processMs(Path stat) {
        try {
            String text = Files.readString(stat);
            // the command name in parentheses may hold spaces: fields are counted after its closing parenthesis
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK_MS;
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }
}
