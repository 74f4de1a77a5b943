package io.kapi.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.ExpositionFormats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the metrics registry")
final class MetricsTest {

    private static String text(Metrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, metrics.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("help texts start with the stability class, as kube's do; deprecated ones say since when")
    void help() throws IOException {
        Metrics metrics = Metrics.defaults();
        metrics.storage().objectCounts(counts -> counts.count(3, "apps", "deployments"));
        String text = text(metrics);
        assertTrue(text.contains("# HELP apiserver_storage_objects [STABLE] (Deprecated since 1.34.0) [DEPRECATED, "
                + "consider using apiserver_resource_objects instead]"), text);
        assertTrue(text.contains("apiserver_storage_objects{resource=\"deployments.apps\"} 3"), text);
        assertTrue(text.contains("apiserver_resource_objects{group=\"apps\",resource=\"deployments\"} 3"), text);
    }

    @Test
    @DisplayName("every family kube's dashboards read is registered under its name, the JVM's and the process's too")
    void families() {
        Metrics metrics = Metrics.defaults();
        Set<String> names = new java.util.HashSet<>();
        metrics.registry().scrape().forEach(s -> names.add(s.getMetadata().getPrometheusName()));
        for (String name : List.of("apiserver_request", "apiserver_request_duration_seconds",
                "apiserver_request_sli_duration_seconds", "apiserver_response_sizes", "apiserver_longrunning_requests",
                "apiserver_current_inflight_requests", "apiserver_request_aborts", "apiserver_request_terminations",
                "apiserver_requested_deprecated_apis", "apiserver_selfrequest", "apiserver_tls_handshake_errors",
                "apiserver_watch_events", "apiserver_watch_events_sizes", "apiserver_terminated_watchers",
                "apiserver_watch_cache_events_dispatched", "apiserver_watch_cache_initializations",
                "apiserver_watch_cache_resource_version", "apiserver_watch_cache_read_wait_seconds",
                "etcd_request_duration_seconds", "etcd_requests", "authentication_attempts",
                "authentication_duration_seconds", "apiserver_authorization_decisions",
                "apiserver_admission_controller_admission_duration_seconds",
                "apiserver_admission_step_admission_duration_seconds",
                "apiserver_admission_webhook_admission_duration_seconds", "apiserver_admission_webhook_rejection_count",
                "apiserver_validating_admission_policy_check", "apiserver_crd_conversion_webhook_duration_seconds",
                "aggregator_unavailable_apiservice", "process_cpu_seconds", "process_resident_memory_bytes",
                "process_open_fds", "process_start_time_seconds", "jvm_memory_used_bytes", "kubernetes_build_info",
                "kubernetes_feature_enabled")) {
            assertTrue(names.contains(name), name + " registered; have " + names);
        }
    }

    @Test
    @DisplayName("--disabled-metrics leaves a family out; the rest stay")
    void disabled() throws IOException {
        Metrics metrics = Metrics.create(new MetricsOptions(Set.of("apiserver_request_total"), null, Map.of()),
                Map.of(), Map.of());
        metrics.requests().completed(labels(), 200, 0.01, 0.01, 10, false, false);
        String text = text(metrics);
        assertFalse(text.contains("apiserver_request_total"), text);
        assertTrue(text.contains("apiserver_request_duration_seconds_bucket"), text);
    }

    @Test
    @DisplayName("--allow-metric-labels turns values off the list into 'unexpected'")
    void allowList() throws IOException {
        Map<String, Set<String>> allowed = MetricsOptions.parseAllowList(
                List.of("apiserver_request_total,verb='GET,LIST'"));
        Metrics metrics = Metrics.create(new MetricsOptions(Set.of(), null, allowed), Map.of(), Map.of());
        metrics.requests().completed(labels(), 201, 0.01, 0.01, 10, false, false);
        String text = text(metrics);
        assertTrue(text.contains("apiserver_request_total{code=\"201\",component=\"apiserver\",dry_run=\"\",group=\"\","
                + "resource=\"configmaps\",scope=\"resource\",subresource=\"\",verb=\"unexpected\",version=\"v1\"} 1"), text);
        assertTrue(text.contains("apiserver_request_duration_seconds_count{component=\"apiserver\",dry_run=\"\","
                + "group=\"\",resource=\"configmaps\",scope=\"resource\",subresource=\"\",verb=\"POST\",version=\"v1\"} 1"),
                "another family keeps the value: " + text);
    }

    @Test
    @DisplayName("an admission plugin's timer records under its name, the request's operation and whether it rejected")
    void admissionTimers() throws IOException {
        Metrics metrics = Metrics.defaults();
        AdmissionMetrics.StepTimer quota = metrics.admission().plugin("ResourceQuota", "validate");
        AdmissionMetrics.StepTimer validate = metrics.admission().step("validate");
        long start = System.nanoTime();
        quota.observeSince("CREATE", false, start);
        quota.observeSince("CREATE", false, start);
        quota.observeSince("CREATE", true, start);
        quota.observeSince("UPDATE", false, start);
        validate.observeSince("CREATE", true, start);
        String text = text(metrics);
        String plugin = "apiserver_admission_controller_admission_duration_seconds_count{name=\"ResourceQuota\",";
        assertTrue(text.contains(plugin + "operation=\"CREATE\",rejected=\"false\",type=\"validate\"} 2"), text);
        assertTrue(text.contains(plugin + "operation=\"CREATE\",rejected=\"true\",type=\"validate\"} 1"), text);
        assertTrue(text.contains(plugin + "operation=\"UPDATE\",rejected=\"false\",type=\"validate\"} 1"), text);
        assertFalse(text.contains(plugin + "operation=\"UPDATE\",rejected=\"true\""), "no series before one: " + text);
        assertTrue(text.contains("apiserver_admission_step_admission_duration_seconds_count{operation=\"CREATE\","
                + "rejected=\"true\",type=\"validate\"} 1"), text);
        assertFalse(text.contains("apiserver_admission_step_admission_duration_seconds_count{operation=\"CREATE\","
                + "rejected=\"false\""), text);
    }

    @Test
    @DisplayName("store requests count and time by operation, group and resource; failures count as errors too")
    void storageRequests() throws IOException {
        Metrics metrics = Metrics.defaults();
        long start = System.nanoTime();
        metrics.storage().request("create", "", "configmaps", start, false);
        metrics.storage().request("create", "", new String("configmaps"), start, true);
        metrics.storage().request("update", "apps", "deployments", start, false);
        String text = text(metrics);
        assertTrue(text.contains("etcd_requests_total{group=\"\",operation=\"create\",resource=\"configmaps\"} 2"), text);
        assertTrue(text.contains("etcd_request_duration_seconds_count{group=\"\",operation=\"create\","
                + "resource=\"configmaps\"} 2"), text);
        assertTrue(text.contains("etcd_request_errors_total{group=\"\",operation=\"create\",resource=\"configmaps\"} 1"),
                text);
        assertTrue(text.contains("etcd_requests_total{group=\"apps\",operation=\"update\",resource=\"deployments\"} 1"),
                text);
    }

    @Test
    @DisplayName("request labels are equal by value, whichever string objects carry them")
    void labelsByValue() {
        RequestMetrics.Labels a = new RequestMetrics.Labels("GET", "", "apps", "v1", "deployments", "", "resource",
                "apiserver");
        RequestMetrics.Labels b = new RequestMetrics.Labels(new String("GET"), new String(""), new String("apps"),
                new String("v1"), new String("deployments"), new String(""), new String("resource"),
                new String("apiserver"));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertFalse(a.equals(new RequestMetrics.Labels("GET", "", "apps", "v1", "deployments", "scale", "resource",
                "apiserver")));
    }

    @Test
    @DisplayName("allow lists parse in kube's stringToString forms")
    void allowListSyntax() {
        assertEquals(Map.of("m1,l1", Set.of("v1", "v2", "v3"), "m1,l2", Set.of("v4")),
                MetricsOptions.parseAllowList(List.of("m1,l1='v1,v2,v3',m1,l2='v4'")));
        assertEquals(Map.of("m2,l1", Set.of("a", "b")), MetricsOptions.parseAllowList(List.of("m2,l1=a,b")));
        assertThrows(IllegalArgumentException.class, () -> MetricsOptions.parseAllowList(List.of("nolabel=v")));
    }

    @Test
    @DisplayName("--show-hidden-metrics-for-version takes only the previous minor version")
    void showHidden() {
        assertEquals("1.33", new MetricsOptions(Set.of(), "1.33", Map.of()).showHiddenForVersion());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MetricsOptions(Set.of(), "1.32", Map.of()));
        assertEquals("--show-hidden-metrics-for-version must be omitted or have the value '1.33'. Only the previous "
                + "minor version is allowed.", e.getMessage());
    }

    @Test
    @DisplayName("a family deprecated before this release is hidden unless shown for the previous version")
    void hidden() throws IOException {
        Definition old = Definition.of("kapi_test_old", Stability.ALPHA, "An old family.").deprecatedIn("1.33.0");
        Metrics plain = Metrics.defaults();
        plain.gauge(old).set(1);
        assertFalse(text(plain).contains("kapi_test_old"));
        Metrics shown = Metrics.create(new MetricsOptions(Set.of(), "1.33", Map.of()), Map.of(), Map.of());
        shown.gauge(old).set(1);
        assertTrue(text(shown).contains("# HELP kapi_test_old [ALPHA] (Deprecated since 1.33.0) An old family."));
    }

    @Test
    @DisplayName("kube's counters without _total keep their names (exposed untyped)")
    void untyped() throws IOException {
        Metrics metrics = Metrics.defaults();
        metrics.security().authenticated("success", System.nanoTime(), "alice@example.com");
        String text = text(metrics);
        assertTrue(text.contains("authentication_attempts{result=\"success\"} 1"), text);
        assertTrue(text.contains("authenticated_user_requests{username=\"email_id\"} 1"), text);
        assertFalse(text.contains("authentication_attempts_total"), text);
    }

    private static RequestMetrics.Labels labels() {
        return new RequestMetrics.Labels("POST", "", "", "v1", "configmaps", "", "resource", "apiserver");
    }
}
