package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class LowerCaseNamesTest {

    @Test
    @DisplayName("a header name in lower case, the same string each time for the server's own names")
    void lowerCase() {
        LowerCaseNames names = new LowerCaseNames();
        String first = names.of("X-Kubernetes-PF-FlowSchema-UID");
        assertEquals("x-kubernetes-pf-flowschema-uid", first);
        assertSame(first, names.of("X-Kubernetes-PF-FlowSchema-UID"), "kept: nothing to lower-case again");
        assertEquals("audit-id", names.of("Audit-Id"));
        assertEquals("warning", names.of("warning"));
    }

    @Test
    @DisplayName("names past the limit (another server's, passed on) are lower-cased each time, not kept")
    void bounded() {
        LowerCaseNames names = new LowerCaseNames();
        for (int i = 0; i < LowerCaseNames.LIMIT; i++) {
            names.of("X-Own-" + i);
        }
        String once = names.of("X-Upstream-Header");
        assertEquals("x-upstream-header", once);
        assertEquals(once, names.of("X-Upstream-Header"));
        assertNotSame(once, names.of("X-Upstream-Header"), "not kept past the limit");
    }
}
