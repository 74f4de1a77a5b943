package io.kapi.endpoint.openapi;

import io.kapi.endpoint.openapi.Operation.Param;
import java.util.List;

/** The query and path parameters kube-apiserver documents on its operations, worded as it words them. */
final class Params {

    static final Param PRETTY = query("pretty", "string",
            "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a"
                    + " browser or command-line HTTP tool (curl and wget).");
    static final Param NAMESPACE = new Param("namespace", "path", "string", true,
            "object name and auth scope, such as for teams and projects");
    static final Param PATH = new Param("path", "path", "string", true, "path to the resource");

    static final Param ALLOW_WATCH_BOOKMARKS = query("allowWatchBookmarks", "boolean",
            "allowWatchBookmarks requests watch events with type \"BOOKMARK\". Servers that do not implement"
                    + " bookmarks may ignore this flag and bookmarks are sent at the server's discretion. Clients"
                    + " should not assume bookmarks are returned at any specific interval, nor may they assume the"
                    + " server will send any BOOKMARK event during a session. If this is not a watch, this field is"
                    + " ignored.");
    static final Param CONTINUE = query("continue", "string",
            "The continue option should be set when retrieving more results from the server. Since this value is"
                    + " server defined, clients may only use the continue value from a previous query result with"
                    + " identical query parameters (except for the value of continue) and the server may reject a"
                    + " continue value it does not recognize.");
    static final Param DRY_RUN = query("dryRun", "string",
            "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun"
                    + " directive will result in an error response and no further processing of the request. Valid"
                    + " values are: - All: all dry run stages will be processed");
    static final Param FIELD_MANAGER = query("fieldManager", "string",
            "fieldManager is a name associated with the actor or entity that is making these changes. The value"
                    + " must be less than or 128 characters long, and only contain printable characters, as defined"
                    + " by https://golang.org/pkg/unicode/#IsPrint.");
    static final Param FIELD_SELECTOR = query("fieldSelector", "string",
            "A selector to restrict the list of returned objects by their fields. Defaults to everything.");
    static final Param FIELD_VALIDATION = query("fieldValidation", "string",
            "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH)"
                    + " containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any"
                    + " unknown fields that are silently dropped from the object, and will ignore all but the last"
                    + " duplicate field that the decoder encounters. This is the default behavior prior to v1.23."
                    + " - Warn: This will send a warning via the standard warning response header for each unknown"
                    + " field that is dropped from the object, and for each duplicate field that is encountered."
                    + " The request will still succeed if there are no other errors, and will only persist the last"
                    + " of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request"
                    + " with a BadRequest error if any unknown fields would be dropped from the object, or if any"
                    + " duplicate fields are present. The error returned from the server will contain all unknown"
                    + " and duplicate fields encountered.");
    static final Param FORCE = query("force", "boolean",
            "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by"
                    + " other people. Force flag must be unset for non-apply patch requests.");
    static final Param GRACE_PERIOD = query("gracePeriodSeconds", "integer",
            "The duration in seconds before the object should be deleted. Value must be non-negative integer. The"
                    + " value zero indicates delete immediately. If this value is nil, the default grace period for"
                    + " the specified type will be used. Defaults to a per object value if not specified. zero"
                    + " means delete immediately.");
    static final Param IGNORE_STORE_READ_ERROR = query("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean",
            "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow"
                    + " fails with a corrupt object error. The default value is false, and the user must opt in to"
                    + " enable it");
    static final Param LABEL_SELECTOR = query("labelSelector", "string",
            "A selector to restrict the list of returned objects by their labels. Defaults to everything.");
    static final Param LIMIT = query("limit", "integer",
            "limit is a maximum number of responses to return for a list call. If more items exist, the server"
                    + " will set the `continue` field on the list metadata to a value that can be used with the same"
                    + " initial query to retrieve the next set of results.");
    static final Param ORPHAN_DEPENDENTS = query("orphanDependents", "boolean",
            "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the"
                    + " dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added"
                    + " to/removed from the object's finalizers list. Either this field or PropagationPolicy may be"
                    + " set, but not both.");
    static final Param PROPAGATION_POLICY = query("propagationPolicy", "string",
            "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be"
                    + " set, but not both. The default policy is decided by the existing finalizer set in the"
                    + " metadata.finalizers and the resource-specific default policy. Acceptable values are:"
                    + " 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the"
                    + " dependents in the background; 'Foreground' - a cascading policy that deletes all dependents"
                    + " in the foreground.");
    static final Param RESOURCE_VERSION = query("resourceVersion", "string",
            "resourceVersion sets a constraint on what resource versions a request may be served from. See"
                    + " https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details."
                    + "\n\nDefaults to unset");
    static final Param RESOURCE_VERSION_MATCH = query("resourceVersionMatch", "string",
            "resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended"
                    + " that resourceVersionMatch be set for list calls where resourceVersion is set See"
                    + " https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details."
                    + "\n\nDefaults to unset");
    static final Param SEND_INITIAL_EVENTS = query("sendInitialEvents", "boolean",
            "`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will"
                    + " begin with synthetic events to produce the current state of objects in the collection. Once"
                    + " all such events have been sent, a synthetic \"Bookmark\" event  will be sent.");
    static final Param TIMEOUT_SECONDS = query("timeoutSeconds", "integer",
            "Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or"
                    + " inactivity.");
    static final Param WATCH = query("watch", "boolean",
            "Watch for changes to the described resources and return them as a stream of add, update, and remove"
                    + " notifications. Specify resourceVersion.");

    static final List<Param> LIST = List.of(ALLOW_WATCH_BOOKMARKS, CONTINUE, FIELD_SELECTOR, LABEL_SELECTOR, LIMIT,
            RESOURCE_VERSION, RESOURCE_VERSION_MATCH, SEND_INITIAL_EVENTS, TIMEOUT_SECONDS, WATCH);
    static final List<Param> WRITE = List.of(DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION);
    static final List<Param> PATCH = List.of(DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE);
    static final List<Param> DELETE = List.of(DRY_RUN, GRACE_PERIOD, IGNORE_STORE_READ_ERROR, ORPHAN_DEPENDENTS,
            PROPAGATION_POLICY);
    static final List<Param> DELETE_COLLECTION = List.of(CONTINUE, DRY_RUN, FIELD_SELECTOR, GRACE_PERIOD,
            IGNORE_STORE_READ_ERROR, LABEL_SELECTOR, LIMIT, ORPHAN_DEPENDENTS, PROPAGATION_POLICY, RESOURCE_VERSION,
            RESOURCE_VERSION_MATCH, SEND_INITIAL_EVENTS, TIMEOUT_SECONDS);

    private Params() {
    }

    static Param name(String kind) {
        return new Param("name", "path", "string", true, "name of the " + kind);
    }

    private static Param query(String name, String type, String description) {
        return new Param(name, "query", type, false, description);
    }
}
