package io.kapi.apis.validation;

import java.time.ZoneId;
import java.util.Set;

/** Go's {@code time.LoadLocation} verdict on an IANA zone name, from the JDK's zone database. */
final class TimeZones {

    private static final Set<String> ZONES = ZoneId.getAvailableZoneIds();

    private TimeZones() {
    }

    /** Null when known (or "UTC"), else Go's {@code unknown time zone X}. */
    static String check(String zone) {
        if (zone.isEmpty() || zone.equals("UTC") || ZONES.contains(zone)) {
            return null;
        }
        return "unknown time zone " + zone;
    }
}
