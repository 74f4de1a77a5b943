package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JobPoliciesTest {

    private static JsonNode v(String json) throws Exception {
        return Json.MAPPER.readTree(json.replace('\'', '"'));
    }

    private static JsonNode pod(String status) throws Exception {
        return v("{'metadata':{'name':'p','namespace':'ns'},'status':" + status + "}");
    }

    private static final String POLICY = """
            {'rules':[
              {'action':'Ignore','onPodConditions':[{'type':'DisruptionTarget'}]},
              {'action':'Count','onExitCodes':{'containerName':'side','operator':'In','values':[1]}},
              {'action':'FailJob','onExitCodes':{'operator':'NotIn','values':[0,1,2]}},
              {'action':'FailIndex','onExitCodes':{'operator':'In','values':[2]}}]}""";

    private static String exit(String container, int code) {
        return "{'phase':'Failed','containerStatuses':[{'name':'" + container + "','state':{'terminated':{'exitCode':"
                + code + "}}}]}";
    }

    @Test
    @DisplayName("the first matching rule decides: Ignore does not count, FailJob gives kube's message")
    void firstRuleDecides() throws Exception {
        JsonNode policy = v(POLICY);
        assertEquals(new JobPolicies.Match(null, false, "Ignore"), JobPolicies.matchFailure(policy,
                pod("{'phase':'Failed','conditions':[{'type':'DisruptionTarget','status':'True'}]}")));
        assertEquals(new JobPolicies.Match(null, true, "Count"), JobPolicies.matchFailure(policy, pod(exit("side", 1))));
        assertEquals(new JobPolicies.Match(
                "Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 2", true, "FailJob"),
                JobPolicies.matchFailure(policy, pod(exit("main", 42))));
        assertEquals(new JobPolicies.Match(null, true, "FailIndex"), JobPolicies.matchFailure(policy, pod(exit("main", 2))));
    }

    @Test
    @DisplayName("no rule matches: counted, no action; exit code 0 and running containers never match; condition status must agree")
    void noMatch() throws Exception {
        JsonNode policy = v(POLICY);
        assertEquals(JobPolicies.Match.NONE, JobPolicies.matchFailure(policy, pod(exit("main", 1))));
        assertEquals(JobPolicies.Match.NONE, JobPolicies.matchFailure(policy, pod(exit("main", 0))));
        assertEquals(JobPolicies.Match.NONE, JobPolicies.matchFailure(policy,
                pod("{'phase':'Failed','containerStatuses':[{'name':'main','state':{'running':{}}}]}")));
        assertEquals(JobPolicies.Match.NONE, JobPolicies.matchFailure(policy,
                pod("{'phase':'Failed','conditions':[{'type':'DisruptionTarget','status':'False'}]}")));
        assertEquals(JobPolicies.Match.NONE, JobPolicies.matchFailure(null, pod(exit("main", 42))));
    }

    @Test
    @DisplayName("a pod condition FailJob rule names the condition")
    void conditionMessage() throws Exception {
        JsonNode policy = v("{'rules':[{'action':'FailJob','onPodConditions':[{'type':'ConfigIssue','status':'True'}]}]}");
        assertEquals("Pod ns/p has condition ConfigIssue matching FailJob rule at index 0", JobPolicies.matchFailure(policy,
                pod("{'phase':'Failed','conditions':[{'type':'ConfigIssue','status':'True'}]}")).failJob());
    }

    @Test
    @DisplayName("success policy: the first rule met by the succeeded indexes, by indexes or by count")
    void successPolicy() throws Exception {
        JsonNode policy = v("{'rules':[{'succeededIndexes':'0-2'},{'succeededCount':3}]}");
        assertEquals(Optional.empty(), JobPolicies.matchSuccess(policy, 10, IndexSet.parse("0,1", 10)));
        assertEquals(Optional.of("Matched rules at index 0"), JobPolicies.matchSuccess(policy, 10, IndexSet.parse("0-2", 10)));
        assertEquals(Optional.of("Matched rules at index 1"), JobPolicies.matchSuccess(policy, 10, IndexSet.parse("1,5,7", 10)));
        assertEquals(Optional.empty(), JobPolicies.matchSuccess(policy, 10, IndexSet.EMPTY));
    }
}
