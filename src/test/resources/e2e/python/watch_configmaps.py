"""Drives Kapi with the official Python client (Debian's python3-kubernetes), as its users do.

usage: watch_configmaps.py KUBECONFIG NAMESPACE

Prints one line per observation, for the Java test to check:
  WATCH <TYPE> <name>     events of a watch started from a resourceVersion taken before the writes
  INFORMER <TYPE> <name>  events seen by a list-then-watch loop (the client's informer pattern)
  DONE                    everything finished
Exits non-zero (with a traceback) on any failure.
"""
import queue
import sys
import threading

from kubernetes import client, config, watch


def name_of(obj):
    """The name of an event's object: a model, or a plain dict for BOOKMARK and ERROR events."""
    if isinstance(obj, dict):
        return obj.get("metadata", {}).get("name", "")
    return obj.metadata.name


def configmap(name, value):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data={"k": value})


def watch_from_version(api, ns):
    """Writes after a list's resourceVersion, then watches from it: ADDED, MODIFIED, DELETED."""
    rv = api.list_namespaced_config_map(ns).metadata.resource_version
    api.create_namespaced_config_map(ns, configmap("py-watch", "a"))
    api.patch_namespaced_config_map("py-watch", ns, {"data": {"k": "b"}})
    api.delete_namespaced_config_map("py-watch", ns)
    w = watch.Watch()
    for event in w.stream(api.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=30):
        name = name_of(event["object"])
        print("WATCH", event["type"], name, flush=True)
        if name == "py-watch" and event["type"] == "DELETED":
            w.stop()


def informer(api, ns):
    """Lists, then watches from the list's version with bookmarks; a live create must arrive."""
    listed = api.list_namespaced_config_map(ns)
    known = {cm.metadata.name for cm in listed.items}
    seen = queue.Queue()
    started = threading.Event()
    w = watch.Watch()

    def run():
        started.set()
        for event in w.stream(api.list_namespaced_config_map, ns,
                              resource_version=listed.metadata.resource_version,
                              allow_watch_bookmarks=True, timeout_seconds=30):
            seen.put((event["type"], name_of(event["object"])))

    reader = threading.Thread(target=run, daemon=True)
    reader.start()
    started.wait(10)
    api.create_namespaced_config_map(ns, configmap("py-live", "x"))
    while True:
        kind, name = seen.get(timeout=30)
        if kind != "BOOKMARK" and (name not in known or kind != "ADDED"):
            print("INFORMER", kind, name, flush=True)
        if name == "py-live":
            w.stop()
            break


def main():
    kubeconfig, ns = sys.argv[1], sys.argv[2]
    config.load_kube_config(config_file=kubeconfig)
    api = client.CoreV1Api()
    watch_from_version(api, ns)
    informer(api, ns)
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
