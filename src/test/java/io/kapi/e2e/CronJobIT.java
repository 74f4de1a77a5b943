package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cronjob and ttl-after-finished controllers ({@code --controllers=*}) under RBAC, with kubectl and
 * fabric8. A real scheduled run without waiting for the clock: a CronJob whose last schedule time is set
 * minutes back has missed its latest time, which kube's controller starts at once (the concurrency policies
 * are tried the same way, with a Job made by hand put in its active list).
 */
@DisplayName("cronjob and ttl-after-finished controllers")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class CronJobIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-cron";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static String get(String what, String jsonpath) {
        return KAPI.kubectl().jsonpath(NS, what, jsonpath);
    }

    static List<String> names(String kind, String selector) {
        String out = kubectl("get", kind, "-n", NS, "-l", selector, "-o", "jsonpath={.items[*].metadata.name}")
                .assertOk().stdout().strip();
        return out.isEmpty() ? List.of() : List.of(out.split(" "));
    }

    static List<String> jobsOf(String cronJob) {
        String out = kubectl("get", "jobs", "-n", NS, "-o", "jsonpath={range .items[?(@.metadata.ownerReferences[0].name==\""
                + cronJob + "\")]}{.metadata.name} {end}").assertOk().stdout().strip();
        return out.isEmpty() ? List.of() : List.of(out.split(" "));
    }

    static String events(String name) {
        return kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.name=" + name, "-o",
                "jsonpath={range .items[*]}{.type} {.reason} {.source.component} {.message}{\"\\n\"}{end}")
                .assertOk().stdout();
    }

    static void cronJob(String name, String schedule, String extra) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"%s"},"spec":{"schedule":"%s",%s\
                "jobTemplate":{"metadata":{"labels":{"cron":"%s"}},"spec":{"template":{"spec":{"restartPolicy":"Never",\
                "containers":[{"name":"c","image":"busybox"}]}}}}}}""".formatted(name, schedule, extra, name),
                "create", "-n", NS, "-f", "-").assertOk();
    }

    /** Ends the Pods of Job {@code job} as a kubelet would. */
    static void finishPods(String job, String phase) throws InterruptedException {
        WAIT.until("a pod of " + job, () -> !names("pods", "job-name=" + job).isEmpty());
        for (String pod : names("pods", "job-name=" + job)) {
            kubectl("patch", "pod", pod, "-n", NS, "--subresource=status", "--type=merge", "-p",
                    "{\"status\":{\"phase\":\"" + phase + "\"}}").assertOk();
        }
    }

    @Test
    @DisplayName("a missed schedule runs at once: <cronjob>-<minutes> with the scheduled timestamp in its time zone, "
            + "in status.active, then SawCompletedJob and lastSuccessfulTime")
    void missedScheduleRuns() throws InterruptedException {
        cronJob("minutely", "*/1 * * * *", "\"timeZone\":\"Europe/Paris\",");
        Instant before = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES);
        kubectl("patch", "cronjob", "minutely", "-n", NS, "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"lastScheduleTime\":\"" + before + "\"}}").assertOk();
        WAIT.until("a job", () -> !jobsOf("minutely").isEmpty());
        String job = jobsOf("minutely").getFirst();
        long minutes = Long.parseLong(job.substring("minutely-".length()));
        Instant scheduled = Instant.ofEpochSecond(minutes * 60);
        assertTrue(scheduled.isAfter(before) && !scheduled.isAfter(Instant.now()), job);
        assertEquals(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").format(scheduled.atZone(ZoneId.of("Europe/Paris"))),
                get("job/" + job, "{.metadata.annotations.batch\\.kubernetes\\.io/cronjob-scheduled-timestamp}"));
        assertEquals("CronJob/minutely/true/minutely", get("job/" + job, "{.metadata.ownerReferences[0].kind}/"
                + "{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}/{.metadata.labels.cron}"));
        WAIT.until("active and lastScheduleTime", () -> get("cronjob/minutely", "{.status.active[0].kind}/"
                + "{.status.active[0].name}/{.status.lastScheduleTime}").equals("Job/" + job + "/" + scheduled));
        finishPods(job, "Succeeded");
        // the schedule is every minute: by now the next minute's Job may be active, so this Job is the one to be gone
        WAIT.until("no longer active, lastSuccessfulTime", () -> !get("cronjob/minutely",
                "{.status.active[*].name}").contains(job) && !get("cronjob/minutely", "{.status.lastSuccessfulTime}").isEmpty());
        assertEquals(get("job/" + job, "{.status.completionTime}"), get("cronjob/minutely", "{.status.lastSuccessfulTime}"));
        WAIT.until("events", () -> events("minutely").contains("Normal SuccessfulCreate cronjob-controller Created job " + job + "\n")
                && events("minutely").contains("Normal SawCompletedJob cronjob-controller Saw completed job: " + job
                        + ", condition: Complete\n"));
    }

    @Test
    @DisplayName("kubectl create job --from=cronjob: the Job runs; the controller reports it as one it did not create")
    void fromCronJob() throws InterruptedException {
        kubectl("create", "cronjob", "nightly", "-n", NS, "--image=busybox", "--schedule=0 3 * * *").assertOk();
        kubectl("create", "job", "by-hand", "-n", NS, "--from=cronjob/nightly").assertOk();
        assertEquals("CronJob/nightly/manual", get("job/by-hand", "{.metadata.ownerReferences[0].kind}/"
                + "{.metadata.ownerReferences[0].name}/{.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate}"));
        WAIT.until("UnexpectedJob", () -> events("nightly").contains(
                "Warning UnexpectedJob cronjob-controller Saw a job that the controller did not create or forgot: by-hand\n"));
        finishPods("by-hand", "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/by-hand", "-n", NS, "--timeout=30s").assertOk();
        WAIT.until("lastSuccessfulTime", () -> !get("cronjob/nightly", "{.status.lastSuccessfulTime}").isEmpty());
        assertEquals("", get("cronjob/nightly", "{.status.lastScheduleTime}"), "nothing was scheduled");
    }

    /**
     * A CronJob {@code name} of every minute whose status says Job {@code running} (made by hand from it) is
     * active and whose last schedule was ten minutes ago: its latest time is due at once.
     */
    static void dueWhileRunning(String name, String policy, String running) {
        cronJob(name, "*/1 * * * *", "\"concurrencyPolicy\":\"" + policy + "\",\"suspend\":true,");
        kubectl("create", "job", running, "-n", NS, "--from=cronjob/" + name).assertOk();
        String uid = get("job/" + running, "{.metadata.uid}");
        Instant before = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES);
        kubectl("patch", "cronjob", name, "-n", NS, "--subresource=status", "--type=merge", "-p", """
                {"status":{"lastScheduleTime":"%s","active":[{"kind":"Job","apiVersion":"batch/v1","namespace":"%s",\
                "name":"%s","uid":"%s"}]}}""".formatted(before, NS, running, uid)).assertOk();
        kubectl("patch", "cronjob", name, "-n", NS, "--type=merge", "-p", "{\"spec\":{\"suspend\":false}}").assertOk();
    }

    @Test
    @DisplayName("Forbid: while a Job is active the due time is skipped with JobAlreadyActive")
    void forbid() throws InterruptedException {
        dueWhileRunning("forbid", "Forbid", "forbid-running");
        WAIT.until("JobAlreadyActive", () -> events("forbid").contains("Normal JobAlreadyActive cronjob-controller "
                + "Not starting job because prior execution is running and concurrency policy is Forbid\n"));
        assertEquals(List.of("forbid-running"), jobsOf("forbid"));
    }

    @Test
    @DisplayName("Replace: the active Job is deleted (SuccessfulDelete) and the due one created in its place")
    void replace() throws InterruptedException {
        dueWhileRunning("replace", "Replace", "replace-running");
        WAIT.until("replaced", () -> events("replace").contains("Normal SuccessfulDelete cronjob-controller Deleted job "
                + "replace-running\n") && jobsOf("replace").size() == 1 && !jobsOf("replace").contains("replace-running"));
        String job = jobsOf("replace").getFirst();
        assertTrue(job.matches("replace-\\d+"), job);
        WAIT.until("the new one active", () -> get("cronjob/replace", "{.status.active[*].name}").equals(job));
    }

    @Test
    @DisplayName("Allow: the due Job starts beside the active one")
    void allow() throws InterruptedException {
        dueWhileRunning("allow", "Allow", "allow-running");
        WAIT.until("two active", () -> get("cronjob/allow", "{.status.active[*].name}").split(" ").length == 2);
        assertEquals(2, jobsOf("allow").size());
    }

    @Test
    @DisplayName("history limits: finished Jobs beyond successfulJobsHistoryLimit are deleted, the earliest started first")
    void historyLimit() throws InterruptedException {
        cronJob("history", "0 3 * * *", "\"successfulJobsHistoryLimit\":1,\"suspend\":true,");
        kubectl("create", "job", "history-a", "-n", NS, "--from=cronjob/history").assertOk();
        finishPods("history-a", "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/history-a", "-n", NS, "--timeout=30s").assertOk();
        kubectl("create", "job", "history-b", "-n", NS, "--from=cronjob/history").assertOk();
        finishPods("history-b", "Succeeded");
        WAIT.until("one kept", () -> jobsOf("history").equals(List.of("history-b")));
        WAIT.until("deletion event", () -> events("history").contains(
                "Normal SuccessfulDelete cronjob-controller Deleted job history-a\n"));
    }

    @Test
    @DisplayName("ttlSecondsAfterFinished: a finished Job and its Pods are deleted that long after it finished")
    void ttlAfterFinished() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"short-lived"},"spec":{"ttlSecondsAfterFinished":2,\
                "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}""",
                "create", "-n", NS, "-f", "-").assertOk();
        finishPods("short-lived", "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/short-lived", "-n", NS, "--timeout=30s").assertOk();
        Instant done = Instant.now();
        WAIT.until("job gone", () -> kubectl("get", "job", "short-lived", "-n", NS).exitCode() != 0);
        assertTrue(Duration.between(done, Instant.now()).toMillis() >= 1000, "not before its TTL");
        WAIT.until("pods gone", () -> names("pods", "job-name=short-lived").isEmpty());
    }

    @Test
    @DisplayName("fabric8: a CronJob read back through the Java client shows its schedule and status")
    void fabric8() throws InterruptedException {
        cronJob("java", "*/5 * * * *", "\"suspend\":true,");
        try (KubernetesClient client = KAPI.fabric8()) {
            CronJob cj = client.batch().v1().cronjobs().inNamespace(NS).withName("java").get();
            assertEquals("*/5 * * * *", cj.getSpec().getSchedule());
            assertEquals(3, cj.getSpec().getSuccessfulJobsHistoryLimit());
            assertEquals(1, cj.getSpec().getFailedJobsHistoryLimit());
            assertEquals("Allow", cj.getSpec().getConcurrencyPolicy());
        }
        Thread.sleep(500);
        assertEquals(List.of(), jobsOf("java"), "suspended: nothing runs");
    }
}
