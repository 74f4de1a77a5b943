package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --simulated-nodes and --simulated-nodes-config. */
class SimulatedNodesFlagTest {

    private static Options options(String... args) throws Exception {
        return assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of(args))).options();
    }

    @Test
    @DisplayName("none by default; N nodes named kapi-node-<i>; the file's nodes first, then the flag's")
    void nodes(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), options().simulation().config().nodeNames());
        assertEquals(List.of("kapi-node-0", "kapi-node-1"), options("--simulated-nodes=2").simulation().config()
                .nodeNames());
        Path file = Files.writeString(dir.resolve("nodes.yaml"), "namePrefix: w-\nnodes: [{name: edge, cpu: '2'}]\n");
        assertEquals(List.of("edge", "w-0"), options("--simulated-nodes=1", "--simulated-nodes-config=" + file)
                .simulation().config().nodeNames());
    }

    @Test
    @DisplayName("a negative count, or a file that cannot be read or says something unknown, stops the start")
    void errors(@TempDir Path dir) throws Exception {
        assertEquals("--simulated-nodes must not be negative", assertThrows(FlagParser.FlagException.class,
                () -> FlagParser.parse(List.of("--simulated-nodes=-1"))).getMessage());
        Path file = Files.writeString(dir.resolve("nodes.yaml"), "nodes: [{name: a, cpus: 4}]\n");
        String message = assertThrows(FlagParser.FlagException.class,
                () -> FlagParser.parse(List.of("--simulated-nodes-config=" + file))).getMessage();
        assertEquals("--simulated-nodes-config: " + file + ": unknown field nodes[0].cpus", message);
        assertTrue(assertThrows(FlagParser.FlagException.class,
                () -> FlagParser.parse(List.of("--simulated-nodes-config=" + dir.resolve("missing.yaml"))))
                .getMessage().startsWith("--simulated-nodes-config: cannot read "));
    }
}
