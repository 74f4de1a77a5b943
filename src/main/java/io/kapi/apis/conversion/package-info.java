/**
 * The conversions of the built-in resources served in more than one version by default, each to the storage
 * version kube-apiserver 1.34 keeps it in: HorizontalPodAutoscalers ({@code autoscaling/v1} and {@code v2},
 * stored as {@code v2}) and Events (core {@code v1} and {@code events.k8s.io/v1}, stored as core {@code v1}),
 * and the off-by-default admissionregistration.k8s.io versions ({@link io.kapi.apis.conversion.SameShapeConversion}).
 * Each kind's registration ({@link io.kapi.apis.groups}) names its conversion.
 *
 * <p>Every other resource is served in one version and kept as served
 * ({@link io.kapi.machinery.conversion.Converter#NONE}): a few of those have another storage version in kube
 * (CustomResourceDefinitions as {@code v1beta1}, resource.k8s.io as {@code v1beta2}), which only their
 * discovery hash reflects, since no client can read them in it.
 */
package io.kapi.apis.conversion;
