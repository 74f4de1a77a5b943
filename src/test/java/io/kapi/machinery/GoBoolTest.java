package io.kapi.machinery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GoBoolTest {

    @ParameterizedTest
    @DisplayName("strconv.ParseBool accepts its six spellings of true")
    @ValueSource(strings = {"1", "t", "T", "TRUE", "true", "True"})
    void parseTrue(String text) {
        assertEquals(Optional.of(true), GoBool.parse(text));
    }

    @ParameterizedTest
    @DisplayName("strconv.ParseBool accepts its six spellings of false")
    @ValueSource(strings = {"0", "f", "F", "FALSE", "false", "False"})
    void parseFalse(String text) {
        assertEquals(Optional.of(false), GoBool.parse(text));
    }

    @ParameterizedTest
    @DisplayName("strconv.ParseBool refuses everything else")
    @ValueSource(strings = {"", "yes", "no", "tRUE", "2", " true", "on"})
    void parseOther(String text) {
        assertEquals(Optional.empty(), GoBool.parse(text));
        assertEquals(Optional.empty(), GoBool.parse(null));
    }

    @ParameterizedTest
    @DisplayName("a query boolean is false only for 0 and false in any case")
    @ValueSource(strings = {"0", "false", "False", "FALSE", "fAlSe"})
    void queryFalse(String value) {
        assertFalse(GoBool.query(value, true));
    }

    @ParameterizedTest
    @DisplayName("a query boolean is true for every other value, the empty one and Python's True included")
    @ValueSource(strings = {"True", "true", "1", "t", "f", "", "yes"})
    void queryTrue(String value) {
        assertTrue(GoBool.query(value, false));
    }

    @Test
    @DisplayName("an absent query boolean takes its default; an absent *bool stays unset")
    void queryAbsent() {
        assertFalse(GoBool.query(null, false));
        assertTrue(GoBool.query(null, true));
        assertNull(GoBool.optionalQuery(null));
        assertEquals(Boolean.TRUE, GoBool.optionalQuery("True"));
    }
}
