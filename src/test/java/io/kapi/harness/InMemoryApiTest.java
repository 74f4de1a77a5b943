package io.kapi.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The {@link InMemoryApi} fixture: when its fields are set and closed, and the flags it takes. */
@DisplayName("@InMemoryApi fields")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InMemoryApiTest {

    @InMemoryApi
    private static ApiHarness shared;
    @InMemoryApi(authorizationModes = "RBAC")
    private static ApiHarness rbac;
    @InMemoryApi
    private ApiHarness own;

    private static ApiHarness sharedInBeforeAll;
    private static ApiHarness firstOwn;

    @BeforeAll
    static void seenByBeforeAll() {
        assertNotNull(shared, "a static field is set before the class's @BeforeAll methods");
        sharedInBeforeAll = shared;
    }

    @BeforeEach
    void seenByBeforeEach() {
        assertNotNull(own, "an instance field is set before the test's @BeforeEach methods");
        assertFalse(own.isClosed());
    }

    @AfterEach
    void openInAfterEach() {
        assertFalse(own.isClosed(), "closed only after the test's @AfterEach methods");
    }

    @AfterAll
    static void openInAfterAll() {
        assertFalse(shared.isClosed(), "closed only after the class's @AfterAll methods");
    }

    @Test
    @Order(1)
    @DisplayName("a static field is one API for the class; an instance field is the test's own")
    void first() {
        firstOwn = own;
        assertSame(sharedInBeforeAll, shared);
        assertNotSame(shared, own);
        assertEquals(201, own.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"mine\"}}").code());
        assertEquals(200, own.get("/api/v1/namespaces/mine").code());
    }

    @Test
    @Order(2)
    @DisplayName("the next test gets a fresh API, the previous test's closed; the class's stays open")
    void second() {
        assertNotSame(firstOwn, own);
        assertTrue(firstOwn.isClosed());
        assertEquals(404, own.get("/api/v1/namespaces/mine").code());
        assertSame(sharedInBeforeAll, shared);
        assertFalse(shared.isClosed());
    }

    @Test
    @DisplayName("authorizationModes: the server's own authorizers decide; without them every request is allowed")
    void authorizationModes() {
        UserInfo nobody = new UserInfo("nobody", "", List.of("system:authenticated"), Map.of());
        assertEquals(403, rbac.call(nobody, "GET", "/api/v1/namespaces/default/pods", null, "").code());
        assertEquals(200, shared.call(nobody, "GET", "/api/v1/namespaces/default/pods", null, "").code());
    }
}
