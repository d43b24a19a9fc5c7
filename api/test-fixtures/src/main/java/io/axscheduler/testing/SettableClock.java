package io.axscheduler.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand; it starts where it is told and moves only when told. */
public final class SettableClock extends Clock {

    private Instant now;

    public SettableClock(String now) {
        this.now = Instant.parse(now);
    }

    public void set(String instant) {
        now = Instant.parse(instant);
    }

    public void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
