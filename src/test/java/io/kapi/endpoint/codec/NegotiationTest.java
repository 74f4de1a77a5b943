package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NegotiationTest {

    private static final String KUBECTL_GET = "application/json;as=Table;v=v1;g=meta.k8s.io,"
            + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("Accept headers pick format and conversion as kube-apiserver does for a custom resource")
    @MethodSource("cases")
    void negotiates(String accept, Format format, String as, String version) {
        ResponseTarget t = Negotiation.forResource(accept, false);
        assertEquals(format, t.format());
        assertEquals(as == null ? null : new GroupVersionKind("meta.k8s.io", version, as), t.as());
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(null, Format.JSON, null, null),
                Arguments.of("", Format.JSON, null, null),
                Arguments.of("*/*", Format.JSON, null, null),
                Arguments.of("application/*", Format.JSON, null, null),
                Arguments.of("application/json", Format.JSON, null, null),
                Arguments.of("application/yaml", Format.YAML, null, null),
                Arguments.of(KUBECTL_GET, Format.JSON, "Table", "v1"),
                Arguments.of("application/json;as=Table;v=v1beta1;g=meta.k8s.io", Format.JSON, "Table", "v1beta1"),
                Arguments.of("application/yaml;as=Table;v=v1;g=meta.k8s.io", Format.YAML, "Table", "v1"),
                Arguments.of("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json",
                        Format.JSON, "PartialObjectMetadataList", "v1"),
                Arguments.of("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1",
                        Format.JSON, "PartialObjectMetadata", "v1beta1"),
                Arguments.of("application/json;as=Table;v=v2;g=meta.k8s.io,application/yaml", Format.YAML, null, null),
                Arguments.of("application/json;as=Table,application/json", Format.JSON, null, null),
                Arguments.of("application/vnd.kubernetes.protobuf,application/json", Format.JSON, null, null),
                Arguments.of("application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io",
                        Format.JSON, "Table", "v1"),
                Arguments.of("application/json;q=0.5,application/yaml", Format.YAML, null, null),
                Arguments.of("*/*;q=0.1,application/yaml;q=0.9", Format.YAML, null, null),
                Arguments.of("text/html,*/*;q=0.8", Format.JSON, null, null),
                Arguments.of("application/json;charset=utf-8", Format.JSON, null, null),
                Arguments.of("application/json;q=0,*/*", Format.YAML, null, null),
                Arguments.of("application/json;stream=watch", Format.JSON, null, null),
                Arguments.of("application/json;stream=other,application/yaml", Format.YAML, null, null));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("for a built-in kind, protobuf is a format of its own; Table never is protobuf")
    @MethodSource("builtInCases")
    void negotiatesBuiltIn(String accept, Format format, String as) {
        ResponseTarget t = Negotiation.forResource(accept, true);
        assertEquals(format, t.format());
        assertEquals(as, t.as() == null ? null : t.as().kind());
    }

    static Stream<Arguments> builtInCases() {
        String metadataClient = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                + "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        return Stream.of(
                Arguments.of("application/vnd.kubernetes.protobuf", Format.PROTOBUF, null),
                Arguments.of("application/vnd.kubernetes.protobuf,application/json", Format.PROTOBUF, null),
                Arguments.of("application/json,application/vnd.kubernetes.protobuf", Format.JSON, null),
                Arguments.of("application/json;q=0.5,application/vnd.kubernetes.protobuf", Format.PROTOBUF, null),
                Arguments.of("application/vnd.kubernetes.protobuf;q=0.5,application/json;q=0.9", Format.JSON, null),
                Arguments.of("application/vnd.kubernetes.protobuf;stream=watch", Format.PROTOBUF, null),
                Arguments.of("application/*", Format.JSON, null),
                Arguments.of("*/*", Format.JSON, null),
                Arguments.of("application/vnd.kubernetes.protobuf;q=0,*/*", Format.JSON, null),
                Arguments.of(metadataClient, Format.PROTOBUF, "PartialObjectMetadataList"),
                Arguments.of("application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json",
                        Format.JSON, null),
                Arguments.of("application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,"
                        + "application/vnd.kubernetes.protobuf", Format.PROTOBUF, null));
    }

    @org.junit.jupiter.api.Test
    @DisplayName("a custom resource's client that accepts only protobuf, or protobuf Tables, gets 406")
    void customResourceProtobufOnly() {
        for (String accept : new String[] {"application/vnd.kubernetes.protobuf",
                "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io"}) {
            assertEquals(406, assertThrows(ApiException.class, () -> Negotiation.forResource(accept, false)).code());
        }
        assertEquals(Format.PROTOBUF, Negotiation.forResource(
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", false).format());
    }

    @org.junit.jupiter.api.Test
    @DisplayName("discovery endpoints serve the aggregated APIGroupDiscoveryList kubectl asks for, or plain JSON")
    void discovery() {
        String kubectl = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
        assertEquals(new GroupVersionKind("apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList"),
                Negotiation.negotiate(kubectl, Negotiation.DISCOVERY_CONVERSIONS, false).as());
        assertEquals(null, Negotiation.negotiate(kubectl, java.util.Set.of(), false).as());
        assertEquals(null, Negotiation.forResource(kubectl, false).as());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("nothing servable is 406 NotAcceptable")
    @MethodSource("unacceptable")
    void notAcceptable(String accept) {
        ApiException e = assertThrows(ApiException.class, () -> Negotiation.forResource(accept, false));
        assertEquals(406, e.code());
        // kube-apiserver lists every media type its serializers offer, protobuf included
        assertEquals("only the following media types are accepted: application/json, application/yaml, "
                + "application/vnd.kubernetes.protobuf", e.getMessage());
    }

    static Stream<String> unacceptable() {
        return Stream.of("application/vnd.kubernetes.protobuf", "text/html", "*/json",
                "application/json;as=Table;v=v1;g=other.io", "application/json;q=0");
    }

    @ParameterizedTest(name = "[{index}] {0} {1}")
    @DisplayName("?pretty decides when given; otherwise curl, Wget and browsers get pretty output")
    @MethodSource("prettyRequests")
    void prettyFromRequest(String param, String userAgent, boolean pretty) {
        assertEquals(pretty, Negotiation.prettyPrint(param, userAgent));
    }

    static Stream<Arguments> prettyRequests() {
        return Stream.of(Arguments.of("true", "kubectl/v1.33.0", true), Arguments.of("false", "curl/8.5.0", false),
                Arguments.of(null, "curl/8.5.0", true), Arguments.of(null, "Mozilla/5.0 (X11)", true),
                Arguments.of(null, "kubectl/v1.33.0 (linux/amd64)", false), Arguments.of("1", null, true));
    }

    @ParameterizedTest(name = "pretty={0}")
    @DisplayName("pretty=1 on the media type asks for indented output")
    @MethodSource("pretty")
    void pretty(String accept, boolean pretty) {
        assertEquals(pretty, Negotiation.forResource(accept, true).pretty());
    }

    static Stream<Arguments> pretty() {
        return Stream.of(Arguments.of("application/json;pretty=1", true),
                Arguments.of("application/json;pretty=0", false), Arguments.of("application/json", false));
    }
}
