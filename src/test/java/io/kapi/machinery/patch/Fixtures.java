package io.kapi.machinery.patch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Shared test data: JSON written with single quotes, real kinds and their patch schemas. */
final class Fixtures {

    static final PatchSchemas SCHEMAS = new PatchSchemas(Schemas.load());
    static final GroupVersionKind DEPLOYMENT_KIND = new GroupVersionKind("apps", "v1", "Deployment");
    static final GroupVersionKind POD_KIND = new GroupVersionKind("", "v1", "Pod");

    private static final ObjectReader LENIENT = Json.MAPPER.reader().with(JsonParser.Feature.ALLOW_SINGLE_QUOTES);

    private Fixtures() {
    }

    /** Parses JSON that may use single quotes. */
    static JsonNode j(String json) {
        try {
            return LENIENT.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode obj(String json) {
        return (ObjectNode) j(json);
    }

    /** The bytes of a patch written with single quotes, as a client would send it (double quotes). */
    static byte[] body(String json) {
        return json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    static PatchSchema deploymentSchema() {
        return SCHEMAS.forKind(DEPLOYMENT_KIND).orElseThrow();
    }

    static PatchSchema podSchema() {
        return SCHEMAS.forKind(POD_KIND).orElseThrow();
    }

    static ObjectNode deployment() {
        return obj("""
                {'apiVersion':'apps/v1','kind':'Deployment',
                 'metadata':{'name':'web','namespace':'default','labels':{'app':'web'},'finalizers':['a','b']},
                 'spec':{'replicas':1,'selector':{'matchLabels':{'app':'web'}},
                  'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}},
                  'template':{'metadata':{'labels':{'app':'web'}},'spec':{
                    'containers':[
                      {'name':'app','image':'nginx:1',
                       'env':[{'name':'A','value':'1'},{'name':'B','value':'2'}],
                       'ports':[{'containerPort':80,'protocol':'TCP'}]},
                      {'name':'sidecar','image':'envoy:1'}],
                    'volumes':[{'name':'data','emptyDir':{}},{'name':'cfg','configMap':{'name':'cfg'}}],
                    'tolerations':[{'key':'k1','operator':'Exists'}]}}}}
                """);
    }
}
