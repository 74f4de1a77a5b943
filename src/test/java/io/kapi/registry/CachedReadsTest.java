package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.StoreCalls;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The object-level read contract, read through the watch cache. */
class CachedReadsTest extends ObjectReadsContract {

    @Override
    protected ResourceReads reads(WatchFixture fixture) {
        ResourceDefinition d = fixture.configmaps.definition();
        return new ResourceReads(d, fixture.storage, ObjectCodec.of(d, AtRest.PLAIN),
                fixture.registry.caches().register(d.keys().prefix(), null));
    }

    @Test
    @DisplayName("a shared list hands out the cache's own objects, a list copies them: changing a copy changes nothing cached")
    void sharedAndCopied() {
        StoreCalls.create(f.configmaps, "default", WatchFixture.configMap("a", Map.of("color", "red")), false);
        StoreCalls.create(f.configmaps, "default", WatchFixture.configMap("b", Map.of("color", "blue")), false);
        ListOptions all = ListOptions.ALL;
        List<ObjectNode> shared = reads.listShared("default", all).items();
        List<ObjectNode> again = reads.listShared("default", all).items();
        assertEquals(2, shared.size());
        assertSame(shared.get(0), again.get(0), "no copy per shared list");
        assertSame(shared.get(1), again.get(1), "no copy per shared list");

        List<ObjectNode> copies = reads.list("default", all).items();
        assertNotSame(shared.get(0), copies.get(0));
        ((ObjectNode) copies.get(0).get("metadata")).putObject("labels").put("color", "green");
        copies.get(0).remove("kind");
        assertEquals("red", reads.listShared("default", all).items().get(0).path("metadata").path("labels").path("color").asText());
        assertEquals("ConfigMap", reads.listShared("default", all).items().get(0).path("kind").asText());
    }
}
