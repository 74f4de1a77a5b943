package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job controller ({@code --controllers=*}) under RBAC, with kubectl and fabric8: Pods made, labelled and
 * finalized as kube's, counted when a test (the kubelet's stand-in) ends them through their status, and
 * the Job's status, conditions and events as kube 1.34 words them.
 */
@DisplayName("job controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class JobIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-job";

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

    static List<String> pods(String job, boolean activeOnly) {
        String out = kubectl("get", "pods", "-n", NS, "-l", "job-name=" + job, "-o",
                "jsonpath={range .items[*]}{.metadata.name} {.status.phase} {.metadata.deletionTimestamp}{\"\\n\"}{end}")
                .assertOk().stdout().strip();
        return out.lines().filter(l -> !l.isBlank())
                .filter(l -> !activeOnly || (!l.contains(" Succeeded") && !l.contains(" Failed") && l.split(" ").length < 3))
                .map(l -> l.split(" ")[0]).toList();
    }

    static void job(String json) {
        KAPI.kubectl().runWithInput(json, "create", "-n", NS, "-f", "-").assertOk();
    }

    static String spec(String name, String extra) {
        return """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},"spec":{%s"template":{"spec":{\
                "restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}""".formatted(name, extra);
    }

    /** Ends {@code pod} as a kubelet would, through its status subresource. */
    static void finish(String pod, String phase) {
        kubectl("patch", "pod", pod, "-n", NS, "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"phase\":\"" + phase + "\"}}").assertOk();
    }

    static String conditions(String job) {
        return get("job/" + job, "{range .status.conditions[*]}{.type}={.status}/{.reason}/{.message};{end}");
    }

    static String events(String job) {
        return kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.name=" + job, "-o",
                "jsonpath={range .items[*]}{.type} {.reason} {.source.component} {.message}{\"\\n\"}{end}")
                .assertOk().stdout();
    }

    @Test
    @DisplayName("kubectl create job: one Pod, labelled and finalized; it succeeds, the Job completes as kube's does")
    void completes() throws InterruptedException {
        kubectl("create", "job", "once", "-n", NS, "--image=busybox").assertOk();
        WAIT.until("one pod", () -> pods("once", true).size() == 1);
        String pod = pods("once", true).getFirst();
        String uid = get("job/once", "{.metadata.uid}");
        assertTrue(pod.matches("once-[a-z0-9]{5}"), pod);
        assertEquals("once/" + uid + "/once/" + uid, get("pod/" + pod, "{.metadata.labels.job-name}/"
                + "{.metadata.labels.controller-uid}/{.metadata.labels.batch\\.kubernetes\\.io/job-name}/"
                + "{.metadata.labels.batch\\.kubernetes\\.io/controller-uid}"));
        assertEquals("[\"batch.kubernetes.io/job-tracking\"]", get("pod/" + pod, "{.metadata.finalizers}"));
        assertEquals("Job/once/true/true", get("pod/" + pod, "{.metadata.ownerReferences[0].kind}/"
                + "{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}/"
                + "{.metadata.ownerReferences[0].blockOwnerDeletion}"));
        WAIT.until("active 1", () -> get("job/once", "{.status.active}/{.status.ready}/{.status.terminating}")
                .equals("1/0/0"));
        assertTrue(get("job/once", "{.status.startTime}").matches("\\d{4}-.*Z"));
        finish(pod, "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/once", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("SuccessCriteriaMet=True/CompletionsReached/Reached expected number of succeeded pods;"
                + "Complete=True/CompletionsReached/Reached expected number of succeeded pods;", conditions("once"));
        assertEquals("1///0/0/{}", get("job/once", "{.status.succeeded}/{.status.failed}/{.status.active}/"
                + "{.status.ready}/{.status.terminating}/{.status.uncountedTerminatedPods}"));
        assertTrue(get("job/once", "{.status.completionTime}").matches("\\d{4}-.*Z"));
        WAIT.until("finalizer removed", () -> !get("pod/" + pod, "{.metadata.finalizers}").contains("job-tracking"));
        assertEquals("", get("pod/" + pod, "{.metadata.finalizers}"));
        WAIT.until("events", () -> events("once").equals("Normal SuccessfulCreate job-controller Created pod: " + pod
                + "\nNormal Completed job-controller Job completed\n"));
    }

    @Test
    @DisplayName("completions 3, parallelism 2: two Pods at a time until three have succeeded")
    void completionsAndParallelism() throws InterruptedException {
        job(spec("three", "\"completions\":3,\"parallelism\":2,"));
        WAIT.until("two pods", () -> pods("three", true).size() == 2);
        Thread.sleep(300);
        assertEquals(2, pods("three", false).size(), "never more than parallelism");
        finish(pods("three", true).getFirst(), "Succeeded");
        WAIT.until("a third pod", () -> pods("three", false).size() == 3 && pods("three", true).size() == 2);
        WAIT.until("succeeded 1, active 2", () -> get("job/three", "{.status.succeeded}/{.status.active}").equals("1/2"));
        for (String pod : pods("three", true)) {
            finish(pod, "Succeeded");
        }
        kubectl("wait", "--for=condition=complete", "job/three", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("3", get("job/three", "{.status.succeeded}"));
        assertEquals(3, pods("three", false).size(), "no Pod beyond the completions");
    }

    @Test
    @DisplayName("Indexed: one Pod per index with kube's annotation, label, hostname and env; completedIndexes compressed")
    void indexed() throws InterruptedException {
        job(spec("idx", "\"completions\":4,\"parallelism\":4,\"completionMode\":\"Indexed\","));
        WAIT.until("four pods", () -> pods("idx", true).size() == 4);
        String[] byIndex = new String[4];
        for (String pod : pods("idx", true)) {
            int ix = Integer.parseInt(get("pod/" + pod, "{.metadata.annotations.batch\\.kubernetes\\.io/job-completion-index}"));
            assertEquals(Integer.toString(ix), get("pod/" + pod, "{.metadata.labels.batch\\.kubernetes\\.io/job-completion-index}"));
            assertEquals("idx-" + ix, get("pod/" + pod, "{.spec.hostname}"));
            assertTrue(pod.startsWith("idx-" + ix + "-"), pod);
            assertEquals("JOB_COMPLETION_INDEX=metadata.annotations['batch.kubernetes.io/job-completion-index']",
                    get("pod/" + pod, "{.spec.containers[0].env[0].name}={.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath}"));
            byIndex[ix] = pod;
        }
        finish(byIndex[0], "Succeeded");
        finish(byIndex[2], "Succeeded");
        finish(byIndex[3], "Succeeded");
        WAIT.until("completedIndexes 0,2,3", () -> get("job/idx", "{.status.completedIndexes}/{.status.succeeded}")
                .equals("0,2,3/3"));
        finish(byIndex[1], "Failed");
        WAIT.until("index 1 made again", () -> pods("idx", true).size() == 1);
        String again = pods("idx", true).getFirst();
        assertTrue(again.startsWith("idx-1-"), again);
        finish(again, "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/idx", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("0-3/4/1", get("job/idx", "{.status.completedIndexes}/{.status.succeeded}/{.status.failed}"));
    }

    @Test
    @DisplayName("backoffLimit 0: the first failed Pod fails the Job, FailureTarget then Failed with BackoffLimitExceeded")
    void backoffLimit() throws InterruptedException {
        job(spec("fails", "\"backoffLimit\":0,"));
        WAIT.until("one pod", () -> pods("fails", true).size() == 1);
        finish(pods("fails", true).getFirst(), "Failed");
        kubectl("wait", "--for=condition=failed", "job/fails", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("FailureTarget=True/BackoffLimitExceeded/Job has reached the specified backoff limit;"
                + "Failed=True/BackoffLimitExceeded/Job has reached the specified backoff limit;", conditions("fails"));
        assertEquals("1//", get("job/fails", "{.status.failed}/{.status.succeeded}/{.status.completionTime}"));
        WAIT.until("event", () -> events("fails").contains(
                "Warning BackoffLimitExceeded job-controller Job has reached the specified backoff limit\n"));
    }

    @Test
    @DisplayName("a podFailurePolicy FailJob rule on an exit code fails the Job with kube's message; Ignore does not count")
    void podFailurePolicy() throws InterruptedException {
        job(spec("policy", """
                "backoffLimit":0,"podFailurePolicy":{"rules":[\
                {"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]},\
                {"action":"FailJob","onExitCodes":{"operator":"In","values":[42]}}]},"""));
        WAIT.until("one pod", () -> pods("policy", true).size() == 1);
        String first = pods("policy", true).getFirst();
        kubectl("patch", "pod", first, "-n", NS, "--subresource=status", "--type=merge", "-p", """
                {"status":{"phase":"Failed","conditions":[{"type":"DisruptionTarget","status":"True"}]}}""").assertOk();
        WAIT.until("replaced, the failure ignored", () -> pods("policy", true).size() == 1
                && !pods("policy", true).getFirst().equals(first));
        String second = pods("policy", true).getFirst();
        kubectl("patch", "pod", second, "-n", NS, "--subresource=status", "--type=merge", "-p", """
                {"status":{"phase":"Failed","containerStatuses":[{"name":"c","image":"busybox","imageID":"",\
                "ready":false,"restartCount":0,"state":{"terminated":{"exitCode":42,"reason":"Error"}}}]}}""").assertOk();
        kubectl("wait", "--for=condition=failed", "job/policy", "-n", NS, "--timeout=30s").assertOk();
        String message = "Container c for pod " + NS + "/" + second + " failed with exit code 42 matching FailJob rule at index 1";
        assertEquals("FailureTarget=True/PodFailurePolicy/" + message + ";Failed=True/PodFailurePolicy/" + message + ";",
                conditions("policy"));
        assertEquals("1", get("job/policy", "{.status.failed}"), "the ignored failure is not counted");
    }

    @Test
    @DisplayName("activeDeadlineSeconds: the Job's Pods are deleted and it fails with DeadlineExceeded")
    void deadline() throws InterruptedException {
        job(spec("late", "\"activeDeadlineSeconds\":2,\"parallelism\":2,\"completions\":2,"));
        WAIT.until("two pods", () -> pods("late", true).size() == 2);
        kubectl("wait", "--for=condition=failed", "job/late", "-n", NS, "--timeout=30s").assertOk();
        assertTrue(conditions("late").endsWith("Failed=True/DeadlineExceeded/Job was active longer than specified deadline;"),
                conditions("late"));
        WAIT.until("pods gone", () -> pods("late", false).isEmpty());
        assertEquals("2/0", get("job/late", "{.status.failed}/{.status.terminating}"));
    }

    @Test
    @DisplayName("suspend: no Pods and Suspended True; resumed, Pods and Suspended False with JobResumed; suspended again, Pods deleted")
    void suspend() throws InterruptedException {
        job(spec("paused", "\"suspend\":true,"));
        WAIT.until("Suspended", () -> conditions("paused").equals("Suspended=True/JobSuspended/Job suspended;"));
        assertEquals(List.of(), pods("paused", false));
        assertEquals("", get("job/paused", "{.status.startTime}"));
        kubectl("patch", "job", "paused", "-n", NS, "--type=merge", "-p", "{\"spec\":{\"suspend\":false}}").assertOk();
        WAIT.until("a pod", () -> pods("paused", true).size() == 1);
        WAIT.until("resumed", () -> conditions("paused").equals("Suspended=False/JobResumed/Job resumed;"));
        kubectl("patch", "job", "paused", "-n", NS, "--type=merge", "-p", "{\"spec\":{\"suspend\":true}}").assertOk();
        WAIT.until("pod deleted", () -> pods("paused", false).isEmpty());
        WAIT.until("suspended again", () -> conditions("paused").equals("Suspended=True/JobSuspended/Job suspended;"));
        WAIT.until("events", () -> events("paused").contains("Normal Suspended job-controller Job suspended\n")
                && events("paused").contains("Normal Resumed job-controller Job resumed\n")
                && events("paused").contains("Normal SuccessfulDelete job-controller Deleted pod: "));
    }

    @Test
    @DisplayName("successPolicy: index 0 succeeding meets it; the other Pods go and the Job completes with SuccessPolicy")
    void successPolicy() throws InterruptedException {
        job(spec("leader", """
                "completions":3,"parallelism":3,"completionMode":"Indexed",\
                "successPolicy":{"rules":[{"succeededIndexes":"0"}]},"""));
        WAIT.until("three pods", () -> pods("leader", true).size() == 3);
        String leader = pods("leader", true).stream().filter(p -> p.startsWith("leader-0-")).findFirst().orElseThrow();
        finish(leader, "Succeeded");
        kubectl("wait", "--for=condition=complete", "job/leader", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("SuccessCriteriaMet=True/SuccessPolicy/Matched rules at index 0;"
                + "Complete=True/SuccessPolicy/Matched rules at index 0;", conditions("leader"));
        assertEquals("0/1", get("job/leader", "{.status.completedIndexes}/{.status.succeeded}"));
        WAIT.until("others gone", () -> pods("leader", false).equals(List.of(leader)));
    }

    @Test
    @DisplayName("kubectl delete job: its running Pods go too, their tracking finalizer removed once the Job is gone")
    void deleteJob() throws InterruptedException {
        job(spec("doomed", "\"parallelism\":2,\"completions\":2,"));
        WAIT.until("two pods", () -> pods("doomed", true).size() == 2);
        kubectl("delete", "job", "doomed", "-n", NS, "--wait=false").assertOk();
        WAIT.until("pods gone", () -> pods("doomed", false).isEmpty());
    }

    @Test
    @DisplayName("fabric8: a Job created and read back through the Java client completes")
    void fabric8() throws InterruptedException {
        try (KubernetesClient client = KAPI.fabric8()) {
            client.batch().v1().jobs().inNamespace(NS).resource(new JobBuilder().withNewMetadata().withName("java")
                    .endMetadata().withNewSpec().withNewTemplate().withNewSpec().withRestartPolicy("Never")
                    .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().endTemplate()
                    .endSpec().build()).create();
            WAIT.until("a pod", () -> client.pods().inNamespace(NS).withLabel("job-name", "java").list().getItems()
                    .size() == 1);
            finish(client.pods().inNamespace(NS).withLabel("job-name", "java").list().getItems().getFirst()
                    .getMetadata().getName(), "Succeeded");
            Job done = client.batch().v1().jobs().inNamespace(NS).withName("java")
                    .waitUntilCondition(j -> j.getStatus() != null && j.getStatus().getCompletionTime() != null,
                            30, TimeUnit.SECONDS);
            assertEquals(1, done.getStatus().getSucceeded());
            assertEquals(0, done.getStatus().getReady());
            assertEquals("Complete", done.getStatus().getConditions().getLast().getType());
        }
    }
}
