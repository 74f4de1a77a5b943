/**
 * kube-apiserver's hand-written validation of the built-in kinds: each kind's
 * {@link io.kapi.registry.KindValidator} (field paths and messages as kube 1.34's
 * {@code pkg/apis/<group>/validation}), named by the kind's registration ({@link io.kapi.apis.groups}), and the
 * spec/status split ({@link io.kapi.apis.validation.SpecStatusStrategy}) of kinds whose strategy resets status
 * on create and keeps it on main-resource updates. ObjectMeta rules are not repeated here: the registry applies
 * them to every kind.
 *
 * <p>The rules check the object as stored: for a kind served in several versions, in its storage version
 * (HorizontalPodAutoscalers as autoscaling/v2, events.k8s.io Events as core/v1 Events); they are chosen by the
 * served version, which decides how strict they are.
 */
package io.kapi.apis.validation;
