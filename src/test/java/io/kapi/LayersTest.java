package io.kapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The layers of DESIGN.md, as packages: every dependency of the server's code points down this list
 * (or stays inside its own layer), and no two packages depend on each other, directly or around a
 * cycle. A layer of several packages (the API groups) keeps its packages apart: each is a layer of its
 * own at the same height. The admission API ({@code io.kapi.admission}: interfaces and attributes)
 * sits below the registry that calls it; the admission plugins (its subpackages) sit above the
 * authorizers they ask.
 */
final class LayersTest {

    /** Top to bottom; the packages of one row are side by side and may not use each other. */
    static final List<List<String>> LAYERS = List.of(
            List.of("cli"),
            List.of("assembly"),
            List.of("controllers", "workloads", "simulation", "scheduler"),
            List.of("aggregator", "apiextensions", "apis"),
            List.of("server"),
            List.of("flowcontrol"),
            List.of("client"),
            List.of("health"),
            List.of("authn"),
            List.of("endpoint"),
            List.of("admission.*"),
            List.of("authz"),
            List.of("informers"),
            List.of("registry"),
            List.of("audit"),
            List.of("webhook"),
            List.of("admission"),
            List.of("encryption"),
            List.of("storage"),
            List.of("certs"),
            List.of("request"),
            List.of("user"),
            List.of("metrics"),
            List.of("tracing"),
            List.of("logs"),
            List.of("machinery"));

    /** Held, so its level stays: the build rewrites lambdas into classes, and ArchUnit warns of each. */
    private static final java.util.logging.Logger ARCHUNIT_LOG = java.util.logging.Logger.getLogger("com.tngtech.archunit");
    private static JavaClasses classes;

    @BeforeAll
    static void importServer() {
        ARCHUNIT_LOG.setLevel(java.util.logging.Level.SEVERE);
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.kapi");
    }

    @Test
    @DisplayName("every package of the server belongs to a layer")
    void everyPackageHasALayer() {
        Set<String> unplaced = new TreeSet<>();
        for (JavaClass c : classes) {
            if (layer(c.getPackageName()) == null) {
                unplaced.add(c.getPackageName());
            }
        }
        assertEquals(Set.of(), unplaced, "packages in no layer of LayersTest.LAYERS");
    }

    @Test
    @DisplayName("no class uses a class of a higher layer, or of a package beside its own")
    void dependenciesPointDown() {
        List<String> upwards = new ArrayList<>();
        for (JavaClass c : classes) {
            Placed from = layer(c.getPackageName());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                if (!target.getPackageName().startsWith("io.kapi")) {
                    continue;
                }
                Placed to = layer(target.getPackageName());
                if (from == null || to == null) {
                    continue;
                }
                if (to.row() < from.row() || (to.row() == from.row() && !to.name().equals(from.name())
                        && !from.name().equals("admission.*"))) {
                    upwards.add(d.getDescription());
                }
            }
        }
        assertEquals(List.of(), upwards.stream().distinct().sorted().limit(50).toList(),
                upwards.size() + " dependencies against the layers");
    }

    @Test
    @DisplayName("no cycle between packages")
    void noPackageCycles() {
        SlicesRuleDefinition.slices().matching("io.kapi.(**)").should().beFreeOfCycles().check(classes);
    }

    /** A package's layer: its row in {@link #LAYERS} and the name it matched. */
    record Placed(int row, String name) {
    }

    static Placed layer(String pkg) {
        if (!pkg.startsWith("io.kapi.")) {
            return null;
        }
        String[] parts = pkg.substring("io.kapi.".length()).split("\\.");
        for (int row = 0; row < LAYERS.size(); row++) {
            for (String name : LAYERS.get(row)) {
                boolean match = switch (name) {
                    case "admission.*" -> parts[0].equals("admission") && parts.length > 1;
                    case "admission" -> parts[0].equals("admission") && parts.length == 1;
                    default -> parts[0].equals(name);
                };
                if (match) {
                    return new Placed(row, name);
                }
            }
        }
        return null;
    }
}
