package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Fills the defaults of one kind in place, as kube-apiserver's generated {@code SetObjectDefaults_*}
 * functions do while decoding: run on every object written (create, update, patch result) before
 * the strategy prepares and validates it. Must be idempotent.
 */
@FunctionalInterface
public interface Defaulter {

    void apply(ObjectNode object);

    Defaulter NONE = object -> { };
}
