package io.kapi.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The audit of one request (kube's {@code AuditContext}): its event, level and omitted stages. The audit
 * filter runs the rest of the chain {@linkplain #call inside} it, so that filters and handlers below
 * (authorization, impersonation, admission) can add to the event through the static methods without
 * being handed anything, as kube's code does through the request's {@code context.Context}.
 */
public final class AuditContext {

    private static final ScopedValue<AuditContext> CURRENT = ScopedValue.newInstance();
    private static final String PATCH_ANNOTATION_PREFIX = "patch.webhook.admission.k8s.io/";

    private final Auditor auditor;
    private final Event event;
    private final Policy.RequestConfig config;

    AuditContext(Auditor auditor, Event event, Policy.RequestConfig config) {
        this.auditor = auditor;
        this.event = event;
        this.config = config;
    }

    /** Runs {@code work} with this context current. */
    public <T> T call(Supplier<T> work) {
        return ScopedValue.where(CURRENT, this).call(work::get);
    }

    /** Adds an annotation to the current request's event, if it is audited (kube's {@code AddAuditAnnotation}). */
    public static void annotate(String key, String value) {
        if (CURRENT.isBound()) {
            CURRENT.get().event.annotate(key, value);
        }
    }

    /** Records whom the current request acts as (kube's {@code LogImpersonatedUser}). */
    public static void impersonated(UserInfo user) {
        if (CURRENT.isBound()) {
            CURRENT.get().event.impersonatedUser = user;
        }
    }

    /**
     * A map for admission's audit annotations ({@code Attributes.auditAnnotations}) that also puts each
     * into the current request's event, if it is audited. A webhook's patch
     * ({@code patch.webhook.admission.k8s.io/...}) only at level Request and above, as kube keeps it.
     */
    public static Map<String, String> admissionAnnotations() {
        AuditContext current = CURRENT.isBound() ? CURRENT.get() : null;
        return current == null ? new ConcurrentHashMap<>() : new AdmissionAnnotations(current.event);
    }

    private static final class AdmissionAnnotations extends ConcurrentHashMap<String, String> {
        private final transient Event event;

        AdmissionAnnotations(Event event) {
            this.event = event;
        }

        @Override
        public String put(String key, String value) {
            if (!key.startsWith(PATCH_ANNOTATION_PREFIX) || event.level.atLeast(Level.REQUEST)) {
                event.annotate(key, value);
            }
            return super.put(key, value);
        }
    }

    public Level level() {
        return event.level;
    }

    /**
     * Writes the RequestReceived stage; false when it could not be stored and the request must be
     * refused (blocking-strict), counted as a rejected request.
     */
    public boolean requestReceived() {
        if (!stage(Stage.REQUEST_RECEIVED)) {
            auditor.rejected();
            return false;
        }
        return true;
    }

    /**
     * The request's object (kube's {@code LogRequestObject}/{@code LogRequestPatch}): fills the object
     * reference's namespace, name, uid and resourceVersion it lacks from the object's metadata, and at
     * level Request and above keeps the object.
     *
     * @param fillReference whether the body is the object itself (create, update), not a patch
     */
    void requestObject(JsonNode object, boolean fillReference) {
        if (object == null) {
            return;
        }
        if (fillReference && event.objectRef != null && object.path("metadata").isObject()) {
            JsonNode m = object.path("metadata");
            for (String f : new String[] {"namespace", "name", "uid", "resourceVersion"}) {
                if (event.objectRef.getOrDefault(f, "").isEmpty() && !m.path(f).asText("").isEmpty()) {
                    event.objectRef.put(f, m.path(f).asText());
                }
            }
        }
        if (event.level.atLeast(Level.REQUEST)) {
            event.requestObject = config.omitManagedFields() ? Events.withoutManagedFields(object) : object;
        }
    }

    /** The request's body as sent: JSON or YAML, parsed for {@link #requestObject}. */
    public void requestBody(byte[] data, String contentType, boolean fillReference) {
        requestObject(Events.parse(data, data.length, contentType, expected()), fillReference);
    }

    /** Whether the request's body is wanted: for the object reference or the event. */
    public boolean wantsRequestBody(boolean objectBody) {
        return objectBody || event.level.atLeast(Level.REQUEST);
    }

    public boolean wantsResponseBody() {
        return event.level.atLeast(Level.REQUEST_RESPONSE);
    }

    /** The response's status code and body (null when not kept or not JSON). */
    public void response(int code, byte[] body, int length, String contentType) {
        // the body is read only when the event keeps it, or when it may be a Status whose fields the
        // responseStatus copies: reading every answer at level Metadata would cost more than the rest
        boolean status = body != null && (code >= 300 || Events.mayBeStatus(body, length));
        JsonNode parsed = status ? Events.parse(body, length, contentType, expected()) : null;
        event.responseStatus = Events.responseStatus(code, parsed);
        if (body == null || !wantsResponseBody()) {
            return;
        }
        if (parsed == null && !config.omitManagedFields() && Events.compactJson(body, length, contentType)) {
            // the server's own compact JSON goes into the event as it is: parsed, it would cost more than
            // the request it records
            event.responseObject = Json.NODES.rawValueNode(new com.fasterxml.jackson.databind.util.RawValue(
                    new String(body, 0, length, java.nio.charset.StandardCharsets.UTF_8)));
            return;
        }
        parsed = parsed != null ? parsed : Events.parse(body, length, contentType, expected());
        if (parsed != null) {
            event.responseObject = config.omitManagedFields() ? Events.withoutManagedFields(parsed) : parsed;
        }
    }

    /** The headers of a long-running response went out. */
    public void responseStarted() {
        stage(Stage.RESPONSE_STARTED);
    }

    public void responseComplete() {
        stage(Stage.RESPONSE_COMPLETE);
    }

    /** The group and version of the request's resource, for protobuf envelopes that leave them out. */
    private io.kapi.machinery.GroupVersionKind expected() {
        return event.objectRef == null ? new io.kapi.machinery.GroupVersionKind("", "v1", "")
                : new io.kapi.machinery.GroupVersionKind(event.objectRef.get("apiGroup"),
                event.objectRef.get("apiVersion"), "");
    }

    /** The request was refused by authentication: kube writes one ResponseStarted event with code 401. */
    public void failedAuthentication() {
        ObjectNode s = Json.object();
        s.putObject("metadata");
        s.put("code", 401);
        event.responseStatus = s;
        stage(Stage.RESPONSE_STARTED);
    }

    /** Serving failed unexpectedly (kube's Panic stage: 500, {@code APIServer panic'd: <error>}). */
    public void panic(Throwable e) {
        ObjectNode s = Json.object();
        s.putObject("metadata");
        s.put("status", "Failure").put("message", "APIServer panic'd: " + e).put("reason", "InternalError")
                .put("code", 500);
        event.responseStatus = s;
        stage(Stage.PANIC);
    }

    private boolean stage(Stage stage) {
        Set<Stage> omit = config.omitStages();
        if (omit.contains(stage)) {
            return true;
        }
        return auditor.process(event.snapshot(stage, Instant.now()));
    }
}
