package io.kapi.scheduler;

import java.util.List;

/**
 * Why a filter turned a Node down (kube's Unschedulable status): {@code reasons} are counted in the
 * "0/N nodes are available" message; {@code unresolvable} (kube's UnschedulableAndUnresolvable) says
 * removing Pods from the Node would not help, so preemption does not try it.
 */
record Rejection(String plugin, List<String> reasons, boolean unresolvable) {

    static Rejection unschedulable(String plugin, String... reasons) {
        return new Rejection(plugin, List.of(reasons), false);
    }

    static Rejection unresolvable(String plugin, String... reasons) {
        return new Rejection(plugin, List.of(reasons), true);
    }
}
