package io.kapi.machinery.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PatchTypeTest {

    @ParameterizedTest(name = "{0} → {1}")
    @DisplayName("content types select the patch format, parameters ignored")
    @CsvSource({
            "application/json-patch+json, JSON",
            "application/merge-patch+json, MERGE",
            "application/strategic-merge-patch+json, STRATEGIC_MERGE",
            "application/apply-patch+yaml, APPLY",
            "'application/merge-patch+json; charset=utf-8', MERGE"})
    void known(String contentType, PatchType expected) {
        assertEquals(expected, PatchType.fromContentType(contentType));
    }

    @ParameterizedTest
    @DisplayName("other content types are 415 listing what PATCH accepts")
    @ValueSource(strings = {"application/json", "text/plain", "", "application/yaml"})
    void unknown(String contentType) {
        ApiException e = assertThrows(ApiException.class, () -> PatchType.fromContentType(contentType));
        assertEquals(415, e.code());
        assertEquals(StatusReason.UNSUPPORTED_MEDIA_TYPE, e.reason());
        assertEquals("the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, "
                + "application/strategic-merge-patch+json, application/apply-patch+yaml", e.getMessage());
    }

    @Test
    @DisplayName("a strategic merge patch on a kind without schema is 415 without the strategic type")
    void strategicWithoutSchema() {
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(PatchType.STRATEGIC_MERGE,
                Fixtures.obj("{'a':1}"), Fixtures.body("{'a':2}"), null));
        assertEquals(415, e.code());
        assertEquals("the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
                e.getMessage());
    }

    @Test
    @DisplayName("apply patches are not the patch engines' job")
    void applyIsElsewhere() {
        assertThrows(IllegalArgumentException.class, () -> Patches.apply(PatchType.APPLY,
                Fixtures.obj("{}"), Fixtures.body("{}"), null));
    }
}
