package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** --storage-media-type: acted on, kube-apiserver's default and its check of the value. */
class StorageMediaTypeFlagTest {

    private static FlagParser.Run run(String... args) throws Exception {
        return assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of(args)));
    }

    @Test
    @DisplayName("protobuf unless told (kube-apiserver's default), json and yaml accepted; the flag is not listed as ignored")
    void parsed() throws Exception {
        assertEquals("application/vnd.kubernetes.protobuf", run().options().storageMediaType());
        assertEquals("application/vnd.kubernetes.protobuf",
                run("--storage-media-type=application/vnd.kubernetes.protobuf").options().storageMediaType());
        FlagParser.Run r = run("--storage-media-type=application/json");
        assertEquals("application/json", r.options().storageMediaType());
        assertEquals(List.of(), r.options().validate());
        assertTrue(r.ignored().stream().noneMatch(f -> f.equals("--storage-media-type")));
        assertEquals(List.of(), run("--storage-media-type=application/yaml").options().validate());
    }

    @Test
    @DisplayName("another media type is a start error, worded as kube-apiserver's")
    void invalid() throws Exception {
        assertEquals("--storage-media-type \"text/plain\" invalid, allowed values: application/json, "
                        + "application/vnd.kubernetes.protobuf, application/yaml",
                assertThrows(FlagParser.FlagException.class,
                        () -> FlagParser.parse(List.of("--storage-media-type=text/plain"))).getMessage());
    }
}
