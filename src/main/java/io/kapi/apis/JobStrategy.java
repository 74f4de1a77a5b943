package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;

/**
 * Jobs' generated selector, as kube-apiserver's job strategy ({@code generateSelector}): unless
 * {@code spec.manualSelector} is true, the pod template gets the labels {@code job-name} and
 * {@code batch.kubernetes.io/job-name} (the job's name) and {@code controller-uid} and
 * {@code batch.kubernetes.io/controller-uid} (its uid), each unless the client set it, and the selector
 * gets {@code matchLabels: {batch.kubernetes.io/controller-uid: <uid>}}. Labels or a selector the
 * client set that contradict these are left for validation to refuse.
 */
public record JobStrategy(Strategy base) implements StrategyDecorator {

    static final String JOB_NAME = "batch.kubernetes.io/job-name";
    static final String LEGACY_JOB_NAME = "job-name";
    static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    static final String LEGACY_CONTROLLER_UID = "controller-uid";

    @Override
    public void prepareForCreate(ObjectNode job) {
        base.prepareForCreate(job);
        if (!job.path("spec").path("manualSelector").asBoolean(false)) {
            generateSelector(job);
        }
    }

    private static void generateSelector(ObjectNode job) {
        String name = job.path("metadata").path("name").asText();
        String uid = job.path("metadata").path("uid").asText();
        ObjectNode spec = job.with("spec");
        ObjectNode labels = spec.with("template").with("metadata").with("labels");
        for (String key : new String[] {LEGACY_JOB_NAME, JOB_NAME}) {
            if (!labels.has(key)) {
                labels.put(key, name);
            }
        }
        for (String key : new String[] {LEGACY_CONTROLLER_UID, CONTROLLER_UID}) {
            if (!labels.has(key)) {
                labels.put(key, uid);
            }
        }
        ObjectNode matchLabels = spec.with("selector").with("matchLabels");
        if (!matchLabels.has(CONTROLLER_UID)) {
            matchLabels.put(CONTROLLER_UID, uid);
        }
    }
}
