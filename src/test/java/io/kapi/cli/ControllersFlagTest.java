package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.controllers.ControllerSelection;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** --controllers: kube-controller-manager's flag, with Kapi's default set when it is not given. */
class ControllersFlagTest {

    private static Options options(String... args) throws Exception {
        return assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of(args))).options();
    }

    @Test
    @DisplayName("without the flag, bin/kapi runs the controllers it ran before, and no workload controller")
    void kapiDefault() throws Exception {
        ControllerSelection on = options().controllerSelection();
        assertTrue(on.enabled("namespace-controller"));
        assertTrue(on.enabled("garbage-collector-controller"));
        assertFalse(on.enabled("deployment-controller"));
        assertFalse(on.enabled("endpoints-controller"));
    }

    @Test
    @DisplayName("with simulated nodes and no --controllers, kube's default set runs (a whole cluster); a given --controllers still wins")
    void simulatedNodesBringTheWorkloadControllers() throws Exception {
        ControllerSelection on = options("--simulated-nodes=3").controllerSelection();
        assertTrue(on.enabled("deployment-controller"));
        assertTrue(on.enabled("endpoints-controller"));
        assertTrue(on.enabled("namespace-controller"));
        assertFalse(options("--simulated-nodes=3", "--controllers=namespace").controllerSelection()
                .enabled("deployment-controller"));
        assertFalse(options("--simulated-nodes=3", "--standalone=false").controllerSelection()
                .enabled("deployment-controller"));
    }

    @Test
    @DisplayName("* adds the workload controllers; -foo and aliases are kube's; repeated flags add up")
    void selectors() throws Exception {
        Options o = options("--controllers=*,-endpoint", "--controllers", "-deployment-controller");
        assertEquals(List.of(), o.validate());
        ControllerSelection on = o.controllerSelection();
        assertTrue(on.enabled("replicaset-controller"));
        assertTrue(on.enabled("namespace-controller"));
        assertFalse(on.enabled("endpoints-controller"));
        assertFalse(on.enabled("deployment-controller"));
        assertFalse(on.enabled("bootstrap-signer-controller"), "off by default in kube, even under *");
    }

    @Test
    @DisplayName("the first selector naming a controller decides; without * only the named ones run")
    void firstWins() throws Exception {
        ControllerSelection on = options("--controllers=replicaset,-replicaset-controller").controllerSelection();
        assertTrue(on.enabled("replicaset-controller"));
        assertFalse(on.enabled("namespace-controller"));
        assertFalse(options("--controllers=").controllerSelection().enabled("namespace-controller"));
    }

    @Test
    @DisplayName("an unknown name is a start error worded as kube-controller-manager's; --standalone=false runs none")
    void errors() throws Exception {
        assertEquals("validation failed for '--controllers': [\"replicasets\" is not in the list of known "
                + "controllers]", assertThrows(FlagParser.FlagException.class,
                        () -> FlagParser.parse(List.of("--controllers=*,-replicasets"))).getMessage());
        assertFalse(options("--standalone=false").controllerSelection().enabled("namespace-controller"));
        assertEquals("--controllers selects in-process controllers, which --standalone=false turns off",
                assertThrows(FlagParser.FlagException.class,
                        () -> FlagParser.parse(List.of("--standalone=false", "--controllers=*"))).getMessage());
    }
}
