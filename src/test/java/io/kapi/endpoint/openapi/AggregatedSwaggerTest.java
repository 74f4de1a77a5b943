package io.kapi.endpoint.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("aggregated servers' OpenAPI v2 documents merged into /openapi/v2")
class AggregatedSwaggerTest {

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text.replace('\'', '"'));
    }

    private static ObjectNode local() throws Exception {
        return json("""
                {'swagger':'2.0','paths':{'/api/v1/pods':{'get':{'operationId':'listPods'}},
                  '/apis/a.example.com/v1/taken':{'get':{'operationId':'ours'}}},
                 'definitions':{'Meta':{'description':'ours'},'Shared':{'type':'string'}}}""");
    }

    @Test
    @DisplayName("the group's paths and what they refer to come in; this server's paths and definitions win, "
            + "a different definition of a taken name is renamed with its references, an equal one shared")
    void merges() throws Exception {
        String theirs = """
                {'swagger':'2.0','paths':{
                  '/apis/a.example.com/v1/things':{'get':{'parameters':[{'$ref':'#/parameters/pretty'}],
                    'responses':{'200':{'schema':{'$ref':'#/definitions/Thing'}}}}},
                  '/apis/a.example.com/v1/taken':{'get':{'operationId':'theirs'}},
                  '/apis/b.example.com/v1/other':{'get':{'operationId':'another group'}}},
                 'definitions':{'Thing':{'properties':{'metadata':{'$ref':'#/definitions/Meta'},
                    'shared':{'$ref':'#/definitions/Shared'}}},
                  'Meta':{'description':'theirs'},'Shared':{'type':'string'},'Unused':{'type':'string'}},
                 'parameters':{'pretty':{'name':'pretty','in':'query','type':'string'}}}""".replace('\'', '"');
        ObjectNode doc = AggregatedSwagger.merge(local(), Map.of("apis/a.example.com/v1", theirs));
        assertEquals("ours", doc.at("/paths/~1apis~1a.example.com~1v1~1taken/get/operationId").asText());
        assertTrue(doc.path("paths").has("/apis/a.example.com/v1/things"));
        assertFalse(doc.path("paths").has("/apis/b.example.com/v1/other"), "another group's path");
        assertTrue(doc.path("paths").has("/api/v1/pods"));
        assertEquals("ours", doc.at("/definitions/Meta/description").asText());
        assertEquals("theirs", doc.at("/definitions/Meta_2/description").asText());
        assertEquals("#/definitions/Meta_2", doc.at("/definitions/Thing/properties/metadata/$ref").asText());
        assertEquals("#/definitions/Shared", doc.at("/definitions/Thing/properties/shared/$ref").asText());
        assertFalse(doc.path("definitions").has("Shared_2"), "an equal definition is shared");
        assertFalse(doc.path("definitions").has("Unused"), "only what the paths refer to");
        assertEquals("pretty", doc.at("/parameters/pretty/name").asText());
    }

    @Test
    @DisplayName("a document that is no Swagger object, or a key that is no group-version, changes nothing")
    void leavesOutTheUnusable() throws Exception {
        ObjectNode before = local();
        ObjectNode doc = AggregatedSwagger.merge(local(), Map.of("apis/a.example.com/v1", "[1,2]",
                "apis/b.example.com/v1", "{not json", "api/v1", "{\"paths\":{\"/api/v1/x\":{}}}",
                "apis/c.example.com/v1", "{\"swagger\":\"2.0\"}"));
        assertEquals(before, doc);
    }
}
