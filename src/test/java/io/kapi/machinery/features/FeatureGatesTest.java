package io.kapi.machinery.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FeatureGatesTest {

    @Test
    @DisplayName("MutatingAdmissionPolicy is off by default (beta in 1.34) and on when set, with or without kube:")
    void mutatingAdmissionPolicy() {
        assertFalse(FeatureGates.DEFAULT.enabled("MutatingAdmissionPolicy"));
        assertTrue(FeatureGates.parse(List.of("MutatingAdmissionPolicy=true")).enabled("MutatingAdmissionPolicy"));
        assertTrue(FeatureGates.parse(List.of("kube:MutatingAdmissionPolicy=true")).enabled("MutatingAdmissionPolicy"));
        assertFalse(FeatureGates.parse(List.of("MutatingAdmissionPolicy=true", "MutatingAdmissionPolicy=false"))
                .enabled("MutatingAdmissionPolicy"));
    }

    @Test
    @DisplayName("an unknown gate, a missing or bad value and a locked gate are kube's errors")
    void errors() {
        assertEquals("unrecognized feature gate: NoSuchGate", assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("NoSuchGate=true"))).getMessage());
        assertEquals("missing bool value for MutatingAdmissionPolicy", assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("MutatingAdmissionPolicy"))).getMessage());
        assertEquals("invalid value of MutatingAdmissionPolicy=yes, err: strconv.ParseBool: parsing \"yes\": invalid "
                + "syntax", assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("MutatingAdmissionPolicy=yes"))).getMessage());
        assertEquals("cannot set feature gate StructuredAuthenticationConfiguration to false, feature is locked to true",
                assertThrows(IllegalArgumentException.class, () -> FeatureGates.parse(
                        List.of("StructuredAuthenticationConfiguration=false"))).getMessage());
    }

    @Test
    @DisplayName("AllBeta switches unlocked beta gates not named themselves; AllAlpha leaves betas alone")
    void allBeta() {
        FeatureGates g = FeatureGates.parse(List.of("AllBeta=true,CoordinatedLeaderElection=false"));
        assertTrue(g.enabled("MutatingAdmissionPolicy"));
        assertFalse(g.enabled("CoordinatedLeaderElection"));
        assertFalse(FeatureGates.parse(List.of("AllAlpha=true")).enabled("MutatingAdmissionPolicy"));
        assertTrue(FeatureGates.parse(List.of("AllAlpha=true")).enabled("StorageVersionAPI"));
        assertTrue(FeatureGates.names().size() > 150);
    }
}
