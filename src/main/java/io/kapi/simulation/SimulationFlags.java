package io.kapi.simulation;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code --simulated-nodes=N} and {@code --simulated-nodes-config=FILE}, as given.
 *
 * @param nodes how many nodes of the default shape to register
 * @param configFile the YAML file of {@link SimulationConfig}, or null for none
 */
public record SimulationFlags(int nodes, Path configFile) {

    public static final SimulationFlags NONE = new SimulationFlags(0, null);

    public SimulationFlags withNodes(int n) {
        return new SimulationFlags(n, configFile);
    }

    public SimulationFlags withConfigFile(Path file) {
        return new SimulationFlags(nodes, file);
    }

    /** Whether the flags ask for simulated nodes at all. */
    public boolean configured() {
        return nodes > 0 || configFile != null;
    }

    /** What is wrong with the flags, worded for the command line; empty when they are fine. */
    public List<String> problems() {
        if (nodes < 0) {
            return List.of("--simulated-nodes must not be negative");
        }
        try {
            config();
            return List.of();
        } catch (IllegalArgumentException e) {
            return List.of("--simulated-nodes-config: " + e.getMessage());
        }
    }

    /** @throws IllegalArgumentException see {@link #problems()} */
    public SimulationConfig config() {
        return SimulationConfig.of(nodes, configFile);
    }
}
