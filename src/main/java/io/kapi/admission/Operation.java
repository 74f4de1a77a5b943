package io.kapi.admission;

/** The operation admission sees, as kube's {@code admission.Operation}. */
public enum Operation {
    CREATE, UPDATE, DELETE, CONNECT
}
