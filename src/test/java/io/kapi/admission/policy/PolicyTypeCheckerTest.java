package io.kapi.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PolicyTypeCheckerTest {

    private static final ResourceTable TABLE = ResourceTable.builtin();
    private static final Schemas SCHEMAS = Schemas.builtin();
    private static final PolicyTypeChecker CHECKER = new PolicyTypeChecker(new ServedTypes(() -> TABLE, () -> SCHEMAS));
    private static final String DEPLOYMENTS = "{\"apiGroups\":[\"apps\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],"
            + "\"resources\":[\"deployments\"]}";

    private static JsonNode policy(String rules, String paramKind, String variables, String validations) throws Exception {
        return Json.MAPPER.readTree("{\"metadata\":{\"name\":\"p\"},\"spec\":{" + (paramKind == null ? "" : "\"paramKind\":" + paramKind + ",")
                + "\"matchConstraints\":{\"resourceRules\":[" + rules + "]},\"variables\":[" + variables + "],"
                + "\"validations\":[" + validations + "]}}");
    }

    private static List<PolicyTypeChecker.ExpressionWarning> check(String rules, String validations) throws Exception {
        return CHECKER.check(policy(rules, null, "", validations));
    }

    @Test
    @DisplayName("expressions that check against the matched kind's schema give no warning")
    void clean() throws Exception {
        assertEquals(List.of(), check(DEPLOYMENTS, "{\"expression\":\"object.spec.replicas <= 5\"},"
                + "{\"expression\":\"object.metadata.name.startsWith('a')\",\"messageExpression\":\"'name ' + object.metadata.name\"}"));
    }

    @Test
    @DisplayName("an unknown field and a wrong operand type are warnings for the field, prefixed by the kind as Go prints it")
    void warnings() throws Exception {
        List<PolicyTypeChecker.ExpressionWarning> w = check(DEPLOYMENTS, "{\"expression\":\"object.spec.replicas <= 5\"},"
                + "{\"expression\":\"object.spec.replicass > 1\"},"
                + "{\"expression\":\"true\",\"messageExpression\":\"object.spec.replicas + 'x'\"}");
        assertEquals(2, w.size(), w.toString());
        assertEquals("spec.validations[1].expression", w.get(0).fieldRef());
        assertTrue(w.get(0).warning().startsWith("apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'"),
                w.get(0).warning());
        assertTrue(w.get(0).warning().endsWith("\n"), "each kind's result ends with a newline");
        assertEquals("spec.validations[2].messageExpression", w.get(1).fieldRef());
        assertTrue(w.get(1).warning().contains("found no matching overload for '_+_' applied to '(int, string)'"),
                w.get(1).warning());
    }

    @Test
    @DisplayName("every exact kind is checked, sorted by group, version and kind; wildcard rules and subresources are skipped")
    void kinds() throws Exception {
        String both = "{\"apiGroups\":[\"apps\",\"\"],\"apiVersions\":[\"v1\"],\"resources\":[\"deployments\",\"pods\",\"pods/status\"]}";
        List<PolicyTypeChecker.ExpressionWarning> w = check(both, "{\"expression\":\"object.spec.nope == 1\"}");
        assertEquals(1, w.size());
        String text = w.get(0).warning();
        assertTrue(text.startsWith("/v1, Kind=Pod: ERROR:"), text);
        assertTrue(text.contains("\n\napps/v1, Kind=Deployment: ERROR:"), text);
        assertEquals(List.of(), check("{\"apiGroups\":[\"*\"],\"apiVersions\":[\"v1\"],\"resources\":[\"deployments\"]}",
                "{\"expression\":\"object.spec.nope == 1\"}"), "a wildcard group is not checked");
        assertEquals(List.of(), check("{\"apiGroups\":[\"apps\"],\"apiVersions\":[\"v1\"],\"resources\":[\"*\"]}",
                "{\"expression\":\"object.spec.nope == 1\"}"), "wildcard resources are not checked");
    }

    @Test
    @DisplayName("params are typed by the param kind and undeclared without one; variables are typed by their expressions")
    void paramsAndVariables() throws Exception {
        String configMap = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}";
        assertEquals(List.of(), CHECKER.check(policy(DEPLOYMENTS, configMap, "",
                "{\"expression\":\"object.spec.replicas <= int(params.data.max)\"}")));
        List<PolicyTypeChecker.ExpressionWarning> typo = CHECKER.check(policy(DEPLOYMENTS, configMap, "",
                "{\"expression\":\"params.dataa.max == '1'\"}"));
        assertTrue(typo.get(0).warning().contains("undefined field 'dataa'"), typo.toString());
        List<PolicyTypeChecker.ExpressionWarning> none = CHECKER.check(policy(DEPLOYMENTS, null, "",
                "{\"expression\":\"params.x == 1\"}"));
        assertTrue(none.get(0).warning().contains("undeclared reference to 'params'"), none.toString());

        List<PolicyTypeChecker.ExpressionWarning> vars = CHECKER.check(policy(DEPLOYMENTS, null,
                "{\"name\":\"replicas\",\"expression\":\"object.spec.replicas\"}",
                "{\"expression\":\"variables.replicas <= 5\"},{\"expression\":\"variables.replicas == 'five'\"}"));
        assertEquals(1, vars.size(), vars.toString());
        assertEquals("spec.validations[1].expression", vars.get(0).fieldRef());
        assertTrue(vars.get(0).warning().contains("found no matching overload for '_==_' applied to '(int, string)'"),
                vars.toString());
    }
}
