package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.DecodeBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Objects nested as deep as {@link DecodeBudget#MAX_DEPTH} allows go through every recursive walk of the
 * server (decode, validation, defaulting, managed fields, patch, apply, encode as JSON, YAML and Table) on a
 * thread with a quarter of the default 1 MiB stack, so the limit leaves a request thread a fourfold margin.
 */
@DisplayName("the depth limit leaves every recursive walk a wide margin")
class DepthLimitTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    @InMemoryApi
    private static Api api;

    /** fieldsV1 is free-form JSON kept as sent: the deepest thing a built-in object may hold. */
    private static String deepConfigMap(String name, int levels) {
        String deep = "{\"f:a\":".repeat(levels) + "{}" + "}".repeat(levels);
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"managedFields\":"
                + "[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":" + deep + "}]},\"data\":{\"k\":\"v\"}}";
    }

    @Test
    @DisplayName("create, get (JSON, YAML, Table), update, patch and apply at the limit, on a 256 KiB stack")
    void atTheLimit() throws Exception {
        int levels = DecodeBudget.MAX_DEPTH - 6;
        List<String> outcomes = new ArrayList<>();
        AtomicReference<Throwable> died = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                String body = deepConfigMap("deep", levels);
                outcomes.add("create " + api.post(CMS, body).code());
                outcomes.add("get " + api.call("GET", CMS + "/deep", null, "").code());
                outcomes.add("get-yaml " + api.call("GET", CMS + "/deep", null, "application/yaml", "").code());
                outcomes.add("list-table " + api.call("GET", CMS, null, "application/json;as=Table;v=v1;g=meta.k8s.io", "")
                        .code());
                outcomes.add("update " + api.put(CMS + "/deep", body).code());
                outcomes.add("patch " + api.call("PATCH", CMS + "/deep", "application/merge-patch+json",
                        "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}").code());
                outcomes.add("apply " + api.call("PATCH", CMS + "/applied?fieldManager=x", "application/apply-patch+yaml",
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"applied\"},\"data\":"
                                + "{\"k\":\"v\"}}").code());
                outcomes.add("too deep " + api.post(CMS, deepConfigMap("deeper", DecodeBudget.MAX_DEPTH)).code());
            } catch (Throwable t) {
                died.set(t);
            }
        }, "small-stack", 256 * 1024);
        small.start();
        small.join();
        if (died.get() != null) {
            throw new AssertionError("a walk overflowed or failed: " + outcomes, died.get());
        }
        assertEquals(8, outcomes.size(), outcomes.toString());
        outcomes.subList(0, 7).forEach(o -> assertTrue(o.endsWith(" 200") || o.endsWith(" 201"), outcomes.toString()));
        assertEquals("too deep 400", outcomes.get(7));
    }
}
