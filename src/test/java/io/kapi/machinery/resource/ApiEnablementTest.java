package io.kapi.machinery.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.GroupVersion;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ApiEnablementTest {

    private static final GroupVersion BETA = new GroupVersion("admissionregistration.k8s.io", "v1beta1");
    private static final GroupVersion ALPHA = new GroupVersion("admissionregistration.k8s.io", "v1alpha1");

    private static boolean served(ResourceTable t, GroupVersion gv, String resource) {
        return t.find(gv.group(), gv.version(), resource).isPresent();
    }

    @Test
    @DisplayName("by default admissionregistration.k8s.io serves v1 only; the table knows the off-by-default rows' facts")
    void defaults() {
        ResourceTable t = ResourceTable.builtin();
        assertEquals(List.of("v1"), t.versions("admissionregistration.k8s.io"));
        assertFalse(served(t, BETA, "mutatingadmissionpolicies"));
    }

    @Test
    @DisplayName("group/version=true serves a version; api/beta serves every beta one; a resource key one resource")
    void enables() {
        ResourceTable beta = ResourceTable.builtin(ApiEnablement.parse(List.of("admissionregistration.k8s.io/v1beta1=true")));
        assertEquals(List.of("v1", "v1beta1"), beta.versions("admissionregistration.k8s.io"));
        assertTrue(served(beta, BETA, "mutatingadmissionpolicies"));
        assertTrue(served(beta, BETA, "validatingadmissionpolicies"));
        assertFalse(served(beta, ALPHA, "mutatingadmissionpolicies"));
        assertTrue(beta.storageVersionHash(beta.find(BETA.group(), "v1beta1", "mutatingadmissionpolicies").orElseThrow())
                .isPresent());
        ResourceTable all = ResourceTable.builtin(ApiEnablement.parse(List.of("api/beta=true,api/alpha=true")));
        assertEquals(List.of("v1", "v1beta1", "v1alpha1"), all.versions("admissionregistration.k8s.io"));
        ResourceTable one = ResourceTable.builtin(ApiEnablement.parse(List.of(
                "admissionregistration.k8s.io/v1alpha1/mutatingadmissionpolicies=true")));
        assertTrue(served(one, ALPHA, "mutatingadmissionpolicies"));
        assertFalse(served(one, ALPHA, "mutatingadmissionpolicybindings"));
        ResourceTable offAgain = ResourceTable.builtin(ApiEnablement.parse(List.of(
                "api/all=true", "admissionregistration.k8s.io/v1beta1=false")));
        assertFalse(served(offAgain, BETA, "mutatingadmissionpolicies"));
        assertTrue(served(offAgain, ALPHA, "mutatingadmissionpolicies"));
    }

    @Test
    @DisplayName("kube's errors: bad values, bad keys, unregistered versions of known groups; unknown groups ignored")
    void errors() {
        assertEquals("invalid value api/all=yes", assertThrows(IllegalArgumentException.class,
                () -> ApiEnablement.parse(List.of("api/all=yes"))).getMessage());
        assertEquals("invalid value of apps/v1: nope, err: strconv.ParseBool: parsing \"nope\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> ApiEnablement.parse(List.of("apps/v1=nope")))
                        .getMessage());
        assertEquals("runtime-config invalid key foo", assertThrows(IllegalArgumentException.class,
                () -> ApiEnablement.parse(List.of("foo=true"))).getMessage());
        assertEquals("group version admissionregistration.k8s.io/v2 that has not been registered",
                assertThrows(IllegalArgumentException.class, () -> ResourceTable.builtin(ApiEnablement.parse(
                        List.of("admissionregistration.k8s.io/v2=true")))).getMessage());
        ResourceTable.builtin(ApiEnablement.parse(List.of("example.com/v1=true", "apps/v1beta2=true")));
    }
}
