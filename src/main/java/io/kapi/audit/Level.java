package io.kapi.audit;

/**
 * How much of a request an audit event records, as audit.k8s.io/v1 names the levels, in increasing
 * order: nothing, the metadata (user, verb, object reference, response status), also the request
 * object, also the response object.
 */
public enum Level {
    NONE("None"),
    METADATA("Metadata"),
    REQUEST("Request"),
    REQUEST_RESPONSE("RequestResponse");

    private final String apiName;

    Level(String apiName) {
        this.apiName = apiName;
    }

    public String apiName() {
        return apiName;
    }

    /** The level called {@code name} in a policy, or null. */
    static Level of(String name) {
        for (Level l : values()) {
            if (l.apiName.equals(name)) {
                return l;
            }
        }
        return null;
    }

    /** Whether this level records at least what {@code other} records. */
    public boolean atLeast(Level other) {
        return compareTo(other) >= 0;
    }
}
