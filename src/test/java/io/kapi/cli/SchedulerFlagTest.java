package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.assembly.ApiConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** --scheduler: true or false; without it, on only with simulated nodes. */
class SchedulerFlagTest {

    private static Options options(String... args) throws Exception {
        return assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of(args))).options();
    }

    @Test
    @DisplayName("absent is the default (off without simulated nodes); true and false are taken as given")
    void parsed() throws Exception {
        assertNull(options().scheduler());
        assertEquals(Boolean.TRUE, options("--scheduler=true").scheduler());
        assertEquals(Boolean.FALSE, options("--scheduler=false").scheduler());
        assertFalse(ApiConfig.builder().dataDir(Path.of("x")).build().schedulerOn());
        assertTrue(ApiConfig.builder().dataDir(Path.of("x")).scheduler(true).build().schedulerOn());
    }

    @Test
    @DisplayName("a value that is no bool is a start error")
    void invalid() {
        assertThrows(FlagParser.FlagException.class, () -> FlagParser.parse(List.of("--scheduler=maybe")));
    }
}
