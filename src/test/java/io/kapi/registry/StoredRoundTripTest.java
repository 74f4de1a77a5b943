package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.storage.KeyValue;
import io.kapi.storage.ValueTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The objects a server really stores survive protobuf storage unchanged: a server storing JSON is filled
 * (its own bootstrap objects, the e2e manifests, objects with zero values kube writes), then every value of
 * a built-in kind is encoded as protobuf storage encodes it and decoded back. Zero values Go leaves out
 * ({@code omitempty}) are dropped, as kube-apiserver drops them; the zeros it writes (pointers, fields
 * without {@code omitempty}: {@code restartCount: 0}, {@code replicas: 0}, {@code ready: false}) stay.
 */
class StoredRoundTripTest {

    @Test
    @DisplayName("every object a JSON server holds reads back unchanged from protobuf storage")
    void everyStoredObject() throws Exception {
        ApiConfig config = ApiConfig.builder().dataDir(Path.of("target/unused"))
                .admission(ApiConfig.Admission.DEFAULT.bare()).storageMediaType(AtRest.JSON).build();
        Map<String, String> failures = new TreeMap<>();
        int checked = 0;
        int dropped = 0;
        try (ApiHarness api = new ApiHarness(config)) {
            StoredSamples.create(api);
            for (KeyValue kv : api.assembly().storage().range("/registry/", "", 0, 0).items()) {
                if (!(Json.MAPPER.readTree(kv.value()) instanceof ObjectNode json)) {
                    continue; // Kapi's own bookkeeping (allocation counters)
                }
                GroupVersionKind gvk = gvk(json);
                if (!ProtobufCodec.supports(gvk)) {
                    continue;
                }
                ObjectCodec codec = new ObjectCodec(gvk, ValueTransformer.IDENTITY, AtRest.PROTOBUF, Converter.NONE, false);
                ObjectNode want = new ObjectCodec(gvk, ValueTransformer.IDENTITY, AtRest.JSON, Converter.NONE, false).decode(kv);
                try {
                    byte[] stored = codec.encode(want, kv.key());
                    ObjectNode got = codec.decode(new KeyValue(kv.key(), stored, kv.createRevision(), kv.modRevision()));
                    var differences = Differences.beyondZeroValues("", want, got);
                    if (!differences.isEmpty()) {
                        failures.put(kv.key(), String.join("; ", differences));
                    }
                    dropped += want.equals(got) ? 0 : 1;
                } catch (RuntimeException e) {
                    failures.put(kv.key(), e.toString());
                }
                checked++;
            }
        }
        assertTrue(checked > 100, "checked " + checked);
        assertTrue(dropped < 20, "objects with zero values dropped: " + dropped);
        assertEquals(Map.of(), failures);
    }

    private static GroupVersionKind gvk(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        return new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
                object.path("kind").asText());
    }
}
