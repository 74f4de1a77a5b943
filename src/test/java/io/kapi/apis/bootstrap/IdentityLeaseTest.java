package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class IdentityLeaseTest {

    private final BootstrapFixture fixture = new BootstrapFixture();

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    @DisplayName("the lease name is kube's hash of the host name: stable per host, different between hosts")
    void names() {
        assertEquals(IdentityLease.leaseName("master-1"), IdentityLease.leaseName("master-1"));
        assertNotEquals(IdentityLease.leaseName("master-1"), IdentityLease.leaseName("master-2"));
        assertTrue(IdentityLease.leaseName("master-1").matches("apiserver-[a-z2-7]{26}"));
    }

    @Test
    @DisplayName("a renewed lease survives garbage collection; one not renewed for an hour is collected, by any server")
    void renewAndCollect() {
        var leases = fixture.client.resource("coordination.k8s.io", "v1", "leases");
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        IdentityLease gone = new IdentityLease(leases, Clock.fixed(start, ZoneOffset.UTC), "old-host");
        gone.renew();
        Instant later = start.plus(Duration.ofMinutes(59));
        IdentityLease live = new IdentityLease(leases, Clock.fixed(later, ZoneOffset.UTC), "live-host");
        live.renew();
        assertEquals(0, live.collectGarbage(), "nothing expired yet");
        IdentityLease collector = new IdentityLease(leases, Clock.fixed(start.plus(Duration.ofMinutes(61)), ZoneOffset.UTC),
                "live-host");
        collector.renew();
        assertEquals(1, collector.collectGarbage());
        assertTrue(leases.find("kube-system", gone.name()).isEmpty());
        assertEquals("2026-01-01T01:01:00.000000Z", leases.find("kube-system", live.name()).orElseThrow()
                .path("spec").path("renewTime").asText(), "renewed by the server on the same host");
    }
}
