package io.kapi.workloads;

import io.kapi.health.PostStartHook;

/** One workload controller: its post-start hook starts its workers, {@link #close()} stops them. */
public interface WorkloadController extends PostStartHook, AutoCloseable {
}
