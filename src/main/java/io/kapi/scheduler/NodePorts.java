package io.kapi.scheduler;

/** kube's NodePorts: a host port the Pod asks for must not be taken on the Node (same protocol, overlapping IP). */
final class NodePorts implements Plugin {

    static final String NAME = "NodePorts";
    static final String REASON = "node(s) didn't have free ports for the requested pod ports";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        for (PodInfo.HostPort wanted : cycle.pod().ports()) {
            for (PodInfo.HostPort used : node.usedPorts) {
                if (wanted.conflicts(used)) {
                    return Rejection.unschedulable(NAME, REASON);
                }
            }
        }
        return null;
    }
}
