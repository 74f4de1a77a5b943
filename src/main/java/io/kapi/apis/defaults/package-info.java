/**
 * The defaulting of the built-in kinds, as kube-apiserver 1.34's {@code SetObjectDefaults_*} functions (the
 * generated {@code zz_generated.defaults.go} plus each group's hand-written {@code defaults.go}), including
 * the pod templates nested in workloads. Each kind's registration ({@link io.kapi.apis.groups}) names its
 * defaulter.
 *
 * <p>Each {@link io.kapi.registry.Defaulter} fills only what is unset in Go's sense (see {@code Fields}), so
 * applying it twice changes nothing the second time. What admission plugins add (ServiceAccount, Priority,
 * DefaultTolerationSeconds, ...) is not here: {@link io.kapi.assembly.AdmissionPlugins}.
 */
package io.kapi.apis.defaults;
