/**
 * The watch verb: {@link io.kapi.endpoint.watch.WatchHandler} opens a watch on a resource's store and
 * streams newline-delimited {@code WatchEvent} frames (object, PartialObjectMetadata or Table), with
 * bookmarks and kube-apiserver's timeouts.
 */
package io.kapi.endpoint.watch;
