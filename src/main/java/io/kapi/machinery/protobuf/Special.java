package io.kapi.machinery.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import java.util.Map;

/**
 * The messages whose JSON form is not an object of their fields: Go types with their own JSON
 * marshalling.
 */
enum Special {
    /** {@code metav1.Time}: RFC 3339 in UTC, whole seconds; an empty message is the zero time, JSON null. */
    TIME,
    /** {@code metav1.MicroTime}: RFC 3339 in UTC with six fraction digits. */
    MICRO_TIME,
    /** {@code metav1.Duration}: Go's duration string, e.g. {@code 1h0m0s}. */
    DURATION,
    /** {@code FieldsV1}, {@code runtime.RawExtension}, apiextensions {@code JSON}: raw JSON bytes. */
    RAW_JSON,
    /** {@code ExtraValue}, {@code metav1.Verbs}: a list of strings. */
    STRING_LIST,
    /** {@code intstr.IntOrString}: a number or a string. */
    INT_OR_STRING,
    /** {@code resource.Quantity}: its string. */
    QUANTITY,
    /** {@code JSONSchemaPropsOrArray}: a schema or an array of schemas. */
    PROPS_OR_ARRAY,
    /** {@code JSONSchemaPropsOrBool}: a schema or a boolean. */
    PROPS_OR_BOOL,
    /** {@code JSONSchemaPropsOrStringArray}: a schema or an array of strings. */
    PROPS_OR_STRING_ARRAY;

    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final String RESOURCE = "k8s.io.apimachinery.pkg.api.resource.";

    private static final Map<String, Special> BY_FULL_NAME = Map.of(
            META + "Time", TIME,
            META + "MicroTime", MICRO_TIME,
            META + "Duration", DURATION,
            META + "FieldsV1", RAW_JSON,
            META + "Verbs", STRING_LIST,
            "k8s.io.apimachinery.pkg.runtime.RawExtension", RAW_JSON,
            "k8s.io.apimachinery.pkg.util.intstr.IntOrString", INT_OR_STRING,
            RESOURCE + "Quantity", QUANTITY,
            RESOURCE + "QuantityValue", QUANTITY);

    private static final Map<String, Special> APIEXTENSIONS = Map.of(
            "JSON", RAW_JSON,
            "JSONSchemaPropsOrArray", PROPS_OR_ARRAY,
            "JSONSchemaPropsOrBool", PROPS_OR_BOOL,
            "JSONSchemaPropsOrStringArray", PROPS_OR_STRING_ARRAY);

    /** The special form of {@code message}, or null for an ordinary object. */
    static Special of(Descriptor message) {
        Special s = BY_FULL_NAME.get(message.getFullName());
        if (s != null) {
            return s;
        }
        if (message.getName().equals("ExtraValue")) {
            return STRING_LIST;
        }
        if (message.getFile().getPackage().startsWith("k8s.io.apiextensions_apiserver.")) {
            return APIEXTENSIONS.get(message.getName());
        }
        return null;
    }
}
