package io.kapi.scheduler;

/** kube's NodeName: a Pod naming a Node in {@code spec.nodeName} fits only there. */
final class NodeName implements Plugin {

    static final String NAME = "NodeName";
    static final String REASON = "node(s) didn't match the requested node name";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        String wanted = cycle.pod().nodeName();
        return wanted.isEmpty() || wanted.equals(node.name()) ? null : Rejection.unresolvable(NAME, REASON);
    }
}
