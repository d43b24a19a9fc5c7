package io.axscheduler.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.ScheduleView;
import io.axscheduler.query.stats.Overview;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.servlet.ModelAndView;

/**
 * What every console page gets: the asset paths, {@code fmt} to show instants, durations and chart data, and who is
 * signed in (for the header's sign-out).
 */
@ControllerAdvice(assignableTypes = {ConsolePages.class, ConsoleActions.class})
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleModel {

    private final Map<String, String> assets;
    private final Formats formats;
    private final ConsoleAccess access;

    ConsoleModel(ConsoleProperties settings, ObjectMapper json, ConsoleAccess access) {
        ConsoleProperties.Assets a = settings.assets();
        this.assets = Map.of("htmx", a.htmx(), "sse", a.sse(), "echarts", a.echarts());
        this.formats = new Formats(json);
        this.access = access;
    }

    /** The actor the console acts as: {@code user:<name>}, {@code oidc:<subject>}. */
    @ModelAttribute("signedIn")
    String signedIn() {
        return access.actor();
    }

    @ModelAttribute("assets")
    Map<String, String> assets() {
        return assets;
    }

    /**
     * A page or form of something the user may not see (or that is not there), or may not do, or a page asked for with
     * a parameter it cannot take (a list's size past its limit): the console's own page saying so, in its look and language, instead of the API's problem+json (which a browser shows as raw text).
     */
    @ExceptionHandler({NotFoundException.class, ForbiddenException.class, InvalidRequestException.class})
    ModelAndView refused(RuntimeException e) {
        HttpStatus status = e instanceof NotFoundException
                ? HttpStatus.NOT_FOUND
                : e instanceof InvalidRequestException ? HttpStatus.BAD_REQUEST : HttpStatus.FORBIDDEN;
        ModelAndView page = new ModelAndView("console/error", status);
        page.addObject("status", status.value());
        page.addObject(
                "detail",
                e instanceof InvalidRequestException invalid
                        ? invalid.errors().stream()
                                .map(f -> f.field() + ": " + f.message())
                                .collect(Collectors.joining("; "))
                        : e.getMessage());
        // an exception handler's model gets none of the @ModelAttribute methods' attributes
        page.addObject("signedIn", signedIn());
        page.addObject("assets", assets);
        page.addObject("fmt", formats);
        return page;
    }

    @ModelAttribute("fmt")
    Formats fmt() {
        return formats;
    }

    /** Formatting for the templates: instants in UTC to the millisecond, durations in the largest sensible unit. */
    public static final class Formats {

        private static final DateTimeFormatter AT =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
        private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        private static final DateTimeFormatter MINUTE =
                DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
        private static final DateTimeFormatter HOUR =
                DateTimeFormatter.ofPattern("dd HH:00").withZone(ZoneOffset.UTC);

        private final ObjectMapper json;

        Formats(ObjectMapper json) {
            this.json = json;
        }

        public String at(Instant at) {
            return utc(at);
        }

        /** A schedule's state as the console names it: a spent once or cron schedule is COMPLETED, though ACTIVE. */
        public String scheduleState(ScheduleView s) {
            return s.completed() ? "COMPLETED" : s.state().name();
        }

        /**
         * The instant as a wall clock of {@code zone} shows it ({@code yyyy-MM-dd HH:mm:ss <zone>}), or empty for
         * none, UTC, or a zone Java does not know.
         */
        public String inZone(Instant at, String zone) {
            return zoned(at, zone);
        }

        /** The wall clock of {@code zone} at {@code at} with the zone's name; empty for UTC, no zone or an unknown one. */
        static String zoned(Instant at, String zone) {
            if (at == null || zone == null || zone.isBlank() || zone.equals("UTC")) return "";
            try {
                return LOCAL.withZone(ZoneId.of(zone)).format(at) + " " + zone;
            } catch (DateTimeException unknown) {
                return "";
            }
        }

        static String utc(Instant at) {
            return at == null ? "—" : AT.format(at);
        }

        public String iso(Instant at) {
            return at == null ? "" : at.toString();
        }

        public String ms(Long ms) {
            if (ms == null) return "—";
            long v = ms;
            if (v < 1_000) return v + " ms";
            if (v < 60_000) return String.format("%.1f s", v / 1000.0);
            if (v < 3_600_000) return String.format("%.1f min", v / 60_000.0);
            if (v < 86_400_000) return String.format("%.1f h", v / 3_600_000.0);
            return String.format("%.1f d", v / 86_400_000.0);
        }

        /** The chart's data as the page's script reads it: labels and one series per outcome. */
        public String chart(List<Overview.Throughput> points, boolean hourly) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put(
                    "labels",
                    points.stream()
                            .map(p -> (hourly ? HOUR : MINUTE).format(p.at()))
                            .toList());
            data.put(
                    "succeeded",
                    points.stream().map(Overview.Throughput::succeeded).toList());
            data.put("failed", points.stream().map(Overview.Throughput::failed).toList());
            data.put(
                    "timedOut",
                    points.stream().map(Overview.Throughput::timedOut).toList());
            data.put(
                    "created", points.stream().map(Overview.Throughput::created).toList());
            try {
                return json.writeValueAsString(data);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
