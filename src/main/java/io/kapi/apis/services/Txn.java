package io.kapi.apis.services;

import java.util.ArrayList;
import java.util.List;

/**
 * What one service write allocated (undone if the write is not stored) and what it gives up (released
 * once the write is stored), like kube's allocation transactions.
 */
final class Txn {

    final List<String> allocatedIps = new ArrayList<>();
    final List<Integer> allocatedPorts = new ArrayList<>();
    final List<String> releasedIps = new ArrayList<>();
    final List<Integer> releasedPorts = new ArrayList<>();
    final boolean dryRun;

    Txn(boolean dryRun) {
        this.dryRun = dryRun;
    }

    void finish(ServiceAllocators allocators, boolean stored) {
        if (dryRun) {
            return;
        }
        allocators.releaseIps(stored ? releasedIps : allocatedIps);
        allocators.releasePorts(stored ? releasedPorts : allocatedPorts);
    }
}
