package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaValidatorTest {

    static final SchemaValidator VALIDATOR = new SchemaValidator(Schemas.load());
    static final GroupVersionKind CM = new GroupVersionKind("", "v1", "ConfigMap");
    static final GroupVersionKind DEPLOY = new GroupVersionKind("apps", "v1", "Deployment");
    static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    static final GroupVersionKind SVC = new GroupVersionKind("", "v1", "Service");

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final String DEPLOYMENT = "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web',"
            + "'labels':{'app':'web'},'creationTimestamp':null},'spec':{'replicas':2,'selector':{'matchLabels':"
            + "{'app':'web'}},'template':{'metadata':{'labels':{'app':'web'}},'spec':{'containers':[{'name':'nginx',"
            + "'image':'nginx:1.27','ports':[{'containerPort':80}],'resources':{'limits':{'cpu':'500m',"
            + "'memory':'128Mi'}},'readinessProbe':{'httpGet':{'path':'/','port':'http'}}}]}}}}";

    @Test
    @DisplayName("a valid deployment passes untouched except for null fields")
    void validDeployment() {
        ObjectNode d = json(DEPLOYMENT);
        ValidationResult r = VALIDATOR.validate(DEPLOY, d, FieldValidation.STRICT, List.of());
        assertEquals(ValidationResult.CLEAN, r);
        assertFalse(d.path("metadata").has("creationTimestamp"));
        assertEquals(2, d.path("spec").path("replicas").intValue());
    }

    @Test
    @DisplayName("unknown fields are pruned and, with Warn, reported by path as warnings")
    void unknownFieldsWarn() {
        ObjectNode d = json(DEPLOYMENT);
        ((ObjectNode) d.path("spec")).put("foo", 1);
        ((ObjectNode) d.path("spec").path("template").path("spec").path("containers").get(0)).put("imagePullPolicyy", "x");
        ValidationResult r = VALIDATOR.validate(DEPLOY, d, FieldValidation.WARN, List.of("duplicate field \"metadata.name\""));
        assertEquals(List.of("duplicate field \"metadata.name\"",
                "unknown field \"spec.template.spec.containers[0].imagePullPolicyy\"", "unknown field \"spec.foo\""),
                r.warnings());
        assertFalse(d.path("spec").has("foo"));
        assertFalse(d.path("spec").path("template").path("spec").path("containers").get(0).has("imagePullPolicyy"));
    }

    @Test
    @DisplayName("unknown and duplicate fields with Strict are 400 strict decoding error")
    void unknownFieldsStrict() {
        ObjectNode cm = json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'foo':1}");
        ApiException e = assertThrows(ApiException.class, () -> VALIDATOR.validate(CM, cm, FieldValidation.STRICT,
                List.of("duplicate field \"metadata.name\"")));
        assertEquals(400, e.code());
        assertEquals("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                + "duplicate field \"metadata.name\", unknown field \"foo\"", e.getMessage());
    }

    @Test
    @DisplayName("unknown fields with Ignore are pruned silently")
    void unknownFieldsIgnore() {
        ObjectNode cm = json("{'metadata':{'name':'x','bogus':{}},'foo':1}");
        assertEquals(ValidationResult.CLEAN, VALIDATOR.validate(CM, cm, FieldValidation.IGNORE, List.of("duplicate field \"a\"")));
        assertEquals("{\"metadata\":{\"name\":\"x\"}}", cm.toString());
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @DisplayName("wrong JSON types are 400 with Go's decoding message")
    @MethodSource("typeErrors")
    void typeErrors(GroupVersionKind gvk, String body, String message) {
        ApiException e = assertThrows(ApiException.class,
                () -> VALIDATOR.validate(gvk, json(body), FieldValidation.WARN, List.of()));
        assertEquals(400, e.code());
        assertEquals(message, e.getMessage());
    }

    static Stream<Arguments> typeErrors() {
        String d = "Deployment in version \"v1\" cannot be handled as a Deployment: ";
        String c = "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: ";
        String p = "Pod in version \"v1\" cannot be handled as a Pod: ";
        return Stream.of(
                Arguments.of(DEPLOY, "{'spec':{'replicas':'2'}}",
                        d + "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(DEPLOY, "{'spec':{'replicas':1.5}}",
                        d + "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(DEPLOY, "{'spec':{'replicas':3000000000}}",
                        d + "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(DEPLOY, "{'spec':'x'}",
                        d + "json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec"),
                Arguments.of(DEPLOY, "{'spec':{'template':{'spec':{'containers':{}}}}}",
                        d + "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container"),
                Arguments.of(DEPLOY, "{'spec':{'template':{'spec':{'containers':[{'name':5}]}}}}",
                        d + "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type string"),
                Arguments.of(CM, "{'metadata':{'labels':{'a':1}}}",
                        c + "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"),
                Arguments.of(CM, "{'data':[]}",
                        c + "json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string"),
                Arguments.of(CM, "{'immutable':'yes'}",
                        c + "json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool"),
                Arguments.of(CM, "{'metadata':{'creationTimestamp':'yesterday'}}",
                        c + "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""),
                Arguments.of(CM, "{'metadata':{'creationTimestamp':'2024-13-01T00:00:00Z'}}",
                        c + "parsing time \"2024-13-01T00:00:00Z\": month out of range"),
                Arguments.of(CM, "{'metadata':{'creationTimestamp':5}}",
                        c + "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"),
                Arguments.of(SECRET, "{'data':{'k':'not base64!'}}",
                        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3"),
                Arguments.of(POD, "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1ki'}}}]}}",
                        p + "unable to parse quantity's suffix"),
                Arguments.of(POD, "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'abc'}}}]}}",
                        p + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of(POD, "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':true}}}]}}",
                        p + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of(POD, "{'spec':{'hostname':5,'containers':[{'name':'a','resources':{'limits':{'cpu':'x'}}}]}}",
                        p + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of(POD, "{'spec':{'hostname':5,'subdomain':6}}",
                        p + "json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string"),
                Arguments.of(SVC, "{'spec':{'ports':[{'port':80,'targetPort':true}]}}",
                        "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @DisplayName("well-formed special values pass")
    @MethodSource("specialValues")
    void specialValuesPass(GroupVersionKind gvk, String body) {
        assertEquals(ValidationResult.CLEAN, VALIDATOR.validate(gvk, json(body), FieldValidation.STRICT, List.of()));
    }

    static Stream<Arguments> specialValues() {
        return Stream.of(
                Arguments.of(POD, "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'100m','memory':'1Gi',"
                        + "'x':2,'y':'1e3','z':'0.5','w':'+1.5E-2','v':'  3Ki '}}}]}}"),
                Arguments.of(SVC, "{'spec':{'ports':[{'port':80,'targetPort':8080},{'port':81,'targetPort':'http'}]}}"),
                Arguments.of(CM, "{'metadata':{'creationTimestamp':'2024-02-29T23:59:59.123+01:00'},'binaryData':{'a':'aGVsbG8='}}"),
                Arguments.of(CM, "{'metadata':{'managedFields':[{'manager':'kubectl','fieldsV1':{'f:data':{'.':{},'f:a':{}}}}]}}"));
    }

    @Test
    @DisplayName("missing required fields are Required field errors with kube's paths")
    void requiredFields() {
        ObjectNode d = json("{'metadata':{'name':'web'},'spec':{'selector':{},'template':{'spec':{'containers':"
                + "[{'image':'nginx','env':[{'value':'x'}]}]}}}}");
        ValidationResult r = VALIDATOR.validate(DEPLOY, d, FieldValidation.WARN, List.of());
        assertEquals(List.of(FieldError.required("spec.template.spec.containers[0].env[0].name", ""),
                FieldError.required("spec.template.spec.containers[0].name", "")), r.errors());
        ApiException e = assertThrows(ApiException.class, () -> r.throwIfInvalid(DEPLOY, "web"));
        assertEquals(422, e.code());
        assertEquals("Deployment.apps \"web\" is invalid: [spec.template.spec.containers[0].env[0].name: Required value, "
                + "spec.template.spec.containers[0].name: Required value]", e.getMessage());
    }

    @Test
    @DisplayName("an empty required list is missing; a missing pod spec reports its containers")
    void requiredEmptyList() {
        ValidationResult r = VALIDATOR.validate(POD, json("{'spec':{'containers':[]}}"), FieldValidation.WARN, List.of());
        assertEquals(List.of(FieldError.required("spec.containers", "")), r.errors());
        ValidationResult d = VALIDATOR.validate(DEPLOY, json("{'spec':{'template':{}}}"), FieldValidation.WARN, List.of());
        assertEquals(List.of(FieldError.required("spec.selector", "")), d.errors());
    }

    @Test
    @DisplayName("required fields under status are not checked")
    void statusNotRequired() {
        ObjectNode pod = json("{'spec':{'containers':[{'name':'a'}]},'status':{'conditions':[{'lastProbeTime':null}]}}");
        assertEquals(ValidationResult.CLEAN, VALIDATOR.validate(POD, pod, FieldValidation.STRICT, List.of()));
    }

    @Test
    @DisplayName("null map values become empty strings and null list items zero values, as Go decodes them")
    void nullsBecomeZeroValues() {
        ObjectNode cm = json("{'data':{'a':null}}");
        VALIDATOR.validate(CM, cm, FieldValidation.STRICT, List.of());
        assertEquals("{\"data\":{\"a\":\"\"}}", cm.toString());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("fieldValidation parses Strict, Warn, Ignore and defaults to Warn")
    @MethodSource("modes")
    void parsesMode(String value, FieldValidation expected) {
        assertEquals(expected, FieldValidation.parse(value, "CreateOptions"));
    }

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(null, FieldValidation.WARN), Arguments.of("", FieldValidation.WARN),
                Arguments.of("Strict", FieldValidation.STRICT), Arguments.of("Warn", FieldValidation.WARN),
                Arguments.of("Ignore", FieldValidation.IGNORE));
    }

    @Test
    @DisplayName("an unsupported fieldValidation is 422 on CreateOptions, worded as kube-apiserver")
    void invalidMode() {
        ApiException e = assertThrows(ApiException.class, () -> FieldValidation.parse("strict", "CreateOptions"));
        assertEquals(422, e.code());
        assertEquals("CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"strict\": "
                + "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"", e.getMessage());
    }

    @Test
    @DisplayName("warning headers are code 299, agent '-', quoted text")
    void warningHeader() {
        assertEquals("299 - \"unknown field \\\"spec.foo\\\"\"", Warnings.header("unknown field \"spec.foo\""));
    }
}
