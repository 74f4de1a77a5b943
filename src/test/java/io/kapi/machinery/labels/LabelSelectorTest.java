package io.kapi.machinery.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.ApiException;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorTest {

    private static final Map<String, String> LABELS = Map.of("app", "web", "tier", "front", "env", "prod");

    @ParameterizedTest(name = "{0} → {1}")
    @DisplayName("selectors match labels as labels.Parse does")
    @CsvSource(delimiter = '|', value = {
            "app=web|true", "app==web|true", "app!=web|false", "app!=db|true", "missing!=x|true",
            "app in (web,db)|true", "app in (db)|false", "app notin (db, cache)|true", "app notin (web)|false",
            "app|true", "!app|false", "!missing|true", "app=web,tier=front|true", "app=web,tier=back|false",
            "app in (web, db),env=prod|true", "''|true"})
    void matches(String selector, boolean expected) {
        assertEquals(expected, LabelSelector.parse(selector).matches(LABELS));
    }

    @ParameterizedTest
    @DisplayName("malformed selectors are a bad request")
    @CsvSource({"'a b'", "'x in (a'", "'=v'", "'a,,b'"})
    void rejects(String selector) {
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.parse(selector));
        assertEquals(400, e.code());
    }
}
