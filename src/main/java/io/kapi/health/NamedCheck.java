package io.kapi.health;

/**
 * A health check made of a name and a probe that throws when unhealthy, on all three endpoints or
 * ({@code readyzOnly}) on {@code /readyz} alone.
 * <pre>{@code new NamedCheck("ping", () -> { })}</pre>
 */
public record NamedCheck(String name, Probe probe, boolean readyzOnly) implements HealthCheck {

    /** A check of all three endpoints. */
    public NamedCheck(String name, Probe probe) {
        this(name, probe, false);
    }

    @FunctionalInterface
    public interface Probe {
        void check() throws Exception;
    }

    @Override
    public void check() throws Exception {
        probe.check();
    }

    /** kube-apiserver's {@code ping}: healthy whenever the server can answer at all. */
    public static HealthCheck ping() {
        return new NamedCheck("ping", () -> { });
    }

    /**
     * kube-apiserver's {@code log}, which fails when writing logs blocks; Kapi's logging does not
     * block on a flush, so it is healthy whenever the server answers.
     */
    public static HealthCheck log() {
        return new NamedCheck("log", () -> { });
    }
}
