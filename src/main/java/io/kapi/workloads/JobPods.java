package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What kube's job controller reads off its Pods and writes into the Pods it makes. */
final class JobPods {

    private JobPods() {
    }

    static String phase(JsonNode pod) {
        return pod.path("status").path("phase").asText("");
    }

    /** kube's {@code CountTerminatingPods}: being deleted, not yet Succeeded or Failed. */
    static boolean terminatingPod(JsonNode pod) {
        return Pods.terminating(pod) && !phase(pod).equals("Succeeded") && !phase(pod).equals("Failed");
    }

    /** The completion index of {@code pod}, or -1 (kube's {@code unknownCompletionIndex}). */
    static int index(JsonNode pod) {
        String value = pod.path("metadata").path("annotations").path(JobController.INDEX).asText("");
        try {
            int i = Integer.parseInt(value);
            return i < 0 ? -1 : i;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** kube's {@code getFinishedTime}: the containers' end, else Ready turning False, else deletion, else creation. */
    static Instant finishTime(JsonNode pod) {
        Instant latest = null;
        for (String list : new String[] {"containerStatuses", "initContainerStatuses"}) {
            for (JsonNode s : pod.path("status").path(list)) {
                String at = s.path("state").path("terminated").path("finishedAt").asText("");
                if (!at.isEmpty() && (latest == null || Instant.parse(at).isAfter(latest))) {
                    latest = Instant.parse(at);
                }
            }
        }
        if (latest != null) {
            return latest;
        }
        for (JsonNode cond : pod.path("status").path("conditions")) {
            if (cond.path("type").asText().equals("Ready") && cond.path("status").asText().equals("False")
                    && !cond.path("lastTransitionTime").asText("").isEmpty()) {
                return Instant.parse(cond.path("lastTransitionTime").asText());
            }
        }
        String deleted = pod.path("metadata").path("deletionTimestamp").asText("");
        String created = pod.path("metadata").path("creationTimestamp").asText("");
        return Instant.parse(!deleted.isEmpty() ? deleted : created.isEmpty() ? "1970-01-01T00:00:00Z" : created);
    }

    /** kube's {@code addCompletionIndexEnvVariables}: JOB_COMPLETION_INDEX from the annotation, in every container. */
    static void addIndexEnv(ObjectNode template) {
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode container : template.path("spec").path(list)) {
                ArrayNode env = ((ObjectNode) container).withArray("env");
                boolean present = false;
                for (JsonNode e : env) {
                    present |= e.path("name").asText().equals("JOB_COMPLETION_INDEX");
                }
                if (!present) {
                    ObjectNode e = env.addObject();
                    e.put("name", "JOB_COMPLETION_INDEX");
                    e.putObject("valueFrom").putObject("fieldRef")
                            .put("fieldPath", "metadata.annotations['" + JobController.INDEX + "']");
                }
            }
        }
    }

    /** kube's {@code activePodsForRemoval}: repeated or invalid indexes first, then the Pods to delete first. */
    static List<ObjectNode> forRemoval(List<ObjectNode> active, Integer completions, boolean indexed,
            int atLeast) {
        List<ObjectNode> remove = new ArrayList<>();
        List<ObjectNode> left = new ArrayList<>();
        if (indexed) {
            Map<Integer, List<ObjectNode>> byIndex = new TreeMap<>();
            for (ObjectNode p : active) {
                int ix = index(p);
                if (ix < 0 || completions == null || ix >= completions) {
                    remove.add(p);
                } else {
                    byIndex.computeIfAbsent(ix, i -> new ArrayList<>()).add(p);
                }
            }
            for (List<ObjectNode> same : byIndex.values()) {
                same.sort(Pods.DELETE_FIRST);
                remove.addAll(same.subList(0, same.size() - 1));
                left.add(same.getLast());
            }
        } else {
            left.addAll(active);
        }
        if (remove.size() < atLeast) {
            left.sort(Pods.DELETE_FIRST);
            remove.addAll(left.subList(0, Math.min(left.size(), atLeast - remove.size())));
        }
        return remove;
    }

    /**
     * An Indexed Job's Pod for index {@code ix}: the index as annotation and label, hostname
     * {@code <job>-<ix>}, named {@code <job>-<ix>-<random>} (the job's name cut to fit kube's 58 characters
     * of generated-name prefix).
     */
    static void index(ObjectNode pod, String job, int ix) {
        pod.with("metadata").with("annotations").put(JobController.INDEX, Integer.toString(ix));
        pod.with("metadata").with("labels").put(JobController.INDEX, Integer.toString(ix));
        pod.with("spec").put("hostname", job + "-" + ix);
        String suffix = "-" + ix + "-";
        String prefix = job + suffix;
        if (prefix.length() > 58) {
            prefix = prefix.substring(0, 58 - suffix.length()) + suffix;
        }
        pod.with("metadata").put("generateName", prefix);
    }
}
