package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Without --runtime-config and --feature-gates, as kube-apiserver 1.34 by default: no MutatingAdmissionPolicy API. */
@DisplayName("MutatingAdmissionPolicy is off by default")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class MutatingAdmissionPolicyOffIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    @Test
    @DisplayName("kubectl api-resources does not list it and kubectl get does not know it")
    void absent() {
        Kubectl kubectl = KAPI.kubectl();
        String resources = kubectl.run("api-resources", "--api-group=admissionregistration.k8s.io", "-o", "name")
                .assertOk().stdout();
        assertFalse(resources.contains("mutatingadmissionpolicies"), resources);
        assertTrue(resources.contains("validatingadmissionpolicies"), resources);
        Kubectl.Result get = kubectl.run("get", "mutatingadmissionpolicies").assertFailed();
        assertEquals("error: the server doesn't have a resource type \"mutatingadmissionpolicies\"",
                get.stderr().strip(), get.toString());
        Kubectl.Result raw = kubectl.run("get", "--raw", "/apis/admissionregistration.k8s.io/v1beta1").assertFailed();
        assertTrue(raw.stderr().contains("NotFound"), raw.toString());
    }
}
