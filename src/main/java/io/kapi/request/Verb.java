package io.kapi.request;

/**
 * What a request does, as kube-apiserver's request info and authorizers name it. Resource requests
 * have the API verbs ({@code get list watch create update patch delete deletecollection}); non-resource
 * requests ({@code /healthz}, {@code /apis}) the lower-case HTTP method; the last few are verbs only
 * authorization checks ask about ({@code impersonate}, RBAC's {@code bind} and {@code escalate},
 * certificates' {@code approve} and {@code sign}, pod security's {@code use}, the unsafe deletion of corrupt
 * objects' {@code unsafe-delete-ignore-read-errors}).
 */
public enum Verb {
    GET("get"),
    LIST("list"),
    WATCH("watch"),
    CREATE("create"),
    UPDATE("update"),
    PATCH("patch"),
    DELETE("delete"),
    DELETECOLLECTION("deletecollection"),
    POST("post"),
    PUT("put"),
    HEAD("head"),
    OPTIONS("options"),
    IMPERSONATE("impersonate"),
    BIND("bind"),
    ESCALATE("escalate"),
    APPROVE("approve"),
    SIGN("sign"),
    USE("use"),
    UNSAFE_DELETE("unsafe-delete-ignore-read-errors");

    private final String apiName;

    Verb(String apiName) {
        this.apiName = apiName;
    }

    /** The verb as the API writes it, e.g. {@code deletecollection}. */
    public String apiName() {
        return apiName;
    }

    /** The verb called {@code name} (e.g. in a resource table row), or null. */
    public static Verb of(String name) {
        for (Verb v : values()) {
            if (v.apiName.equals(name)) {
                return v;
            }
        }
        return null;
    }

    /** Whether a request with this verb writes (create, update, patch, delete, deletecollection). */
    public boolean writes() {
        return switch (this) {
            case CREATE, UPDATE, PATCH, DELETE, DELETECOLLECTION -> true;
            default -> false;
        };
    }

    @Override
    public String toString() {
        return apiName;
    }
}
