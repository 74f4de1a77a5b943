package io.kapi.audit;

/**
 * Where in its life a request is when an event is written (audit.k8s.io/v1 {@code Stage}): received,
 * before the handler runs; response started, once the headers of a long-running response (watch,
 * proxy) are sent; response complete; panic, when serving it failed unexpectedly.
 */
public enum Stage {
    REQUEST_RECEIVED("RequestReceived"),
    RESPONSE_STARTED("ResponseStarted"),
    RESPONSE_COMPLETE("ResponseComplete"),
    PANIC("Panic");

    private final String apiName;

    Stage(String apiName) {
        this.apiName = apiName;
    }

    public String apiName() {
        return apiName;
    }

    static Stage of(String name) {
        for (Stage s : values()) {
            if (s.apiName.equals(name)) {
                return s;
            }
        }
        return null;
    }
}
