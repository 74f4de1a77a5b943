package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** --feature-gates and --runtime-config: acted on, repeatable, and checked at start as kube checks them. */
class FeatureFlagsTest {

    private static FlagParser.Run run(String... args) throws Exception {
        return assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of(args)));
    }

    @Test
    @DisplayName("both flags are acted on (not listed as ignored) and repeatable")
    void parsed() throws Exception {
        FlagParser.Run r = run("--feature-gates=MutatingAdmissionPolicy=true", "--feature-gates", "AllAlpha=false",
                "--runtime-config=admissionregistration.k8s.io/v1beta1=true");
        assertTrue(r.ignored().stream().noneMatch(f -> f.equals("--feature-gates") || f.equals("--runtime-config")));
        Options o = r.options();
        assertEquals(List.of(), o.validate());
        assertTrue(o.gates().enabled("MutatingAdmissionPolicy"));
        assertTrue(io.kapi.machinery.resource.ResourceTable.builtin(o.apis())
                .find("admissionregistration.k8s.io", "v1beta1", "mutatingadmissionpolicies").isPresent());
    }

    @Test
    @DisplayName("an unknown gate or version is a start error, worded as kube-apiserver's")
    void errors() throws Exception {
        assertEquals("--feature-gates: unrecognized feature gate: MutatingAdmissionPolicies",
                assertThrows(FlagParser.FlagException.class,
                        () -> FlagParser.parse(List.of("--feature-gates=MutatingAdmissionPolicies=true"))).getMessage());
        assertEquals("--runtime-config: group version admissionregistration.k8s.io/v3 that has not been registered",
                assertThrows(FlagParser.FlagException.class,
                        () -> FlagParser.parse(List.of("--runtime-config=admissionregistration.k8s.io/v3=true")))
                        .getMessage());
    }
}
