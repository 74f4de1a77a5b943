package io.kapi.health;

/** Told each check's result as a health endpoint runs it (the SLIs of {@code /metrics/slis}). */
@FunctionalInterface
public interface HealthObserver {

    HealthObserver NONE = (check, endpoint, passed) -> { };

    /** {@code check} ran for {@code endpoint} ({@code healthz}, {@code livez} or {@code readyz}). */
    void checked(String check, String endpoint, boolean passed);
}
