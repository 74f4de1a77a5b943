package io.kapi.flowcontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kapi.flowcontrol.FlowControl.Admission;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MaxInFlightTest {

    static Admission admit(FlowControl fc, String method, String path, Map<String, List<String>> query, String... groups) {
        RequestContext c = RequestContext.of(RequestInfo.parse(method, path, query), null, null, "")
                .withUser(new UserInfo("u", "", List.of(groups)));
        return fc.admit(c, query, Instant.now());
    }

    @Test
    @DisplayName("read-only and mutating requests have limits of their own; over a limit: 429, Retry-After 1, unclassified")
    void limits() {
        MaxInFlight fc = new MaxInFlight(1, 1);
        Admission read = assertInstanceOf(Admission.Admitted.class, admit(fc, "GET", "/api/v1/pods", Map.of()));
        Admission.Rejected rejected = assertInstanceOf(Admission.Rejected.class, admit(fc, "GET", "/api/v1/pods", Map.of()));
        assertEquals(1, rejected.retryAfterSeconds());
        assertNull(rejected.classification());
        Admission write = assertInstanceOf(Admission.Admitted.class,
                admit(fc, "POST", "/api/v1/namespaces/d/pods", Map.of()));
        assertInstanceOf(Admission.Rejected.class, admit(fc, "DELETE", "/api/v1/namespaces/d/pods/p", Map.of()));
        ((Admission.Admitted) read).release().run();
        ((Admission.Admitted) read).release().run(); // twice: released once
        assertInstanceOf(Admission.Admitted.class, admit(fc, "GET", "/api/v1/pods", Map.of()));
        assertInstanceOf(Admission.Rejected.class, admit(fc, "GET", "/api/v1/pods", Map.of()));
        ((Admission.Admitted) write).release().run();
    }

    @Test
    @DisplayName("long-running requests are not counted; system:masters is served over the limit; 0 means no limit")
    void exceptions() {
        MaxInFlight fc = new MaxInFlight(1, 0);
        admit(fc, "GET", "/api/v1/pods", Map.of());
        assertInstanceOf(Admission.Admitted.class, admit(fc, "GET", "/api/v1/pods", Map.of("watch", List.of("1"))));
        assertInstanceOf(Admission.Admitted.class, admit(fc, "GET", "/api/v1/namespaces/d/pods/p/log", Map.of()));
        assertInstanceOf(Admission.Admitted.class, admit(fc, "GET", "/api/v1/pods", Map.of(), "system:masters"));
        for (int i = 0; i < 10; i++) {
            assertInstanceOf(Admission.Admitted.class, admit(fc, "PUT", "/api/v1/namespaces/d/pods/p", Map.of()));
        }
    }
}
