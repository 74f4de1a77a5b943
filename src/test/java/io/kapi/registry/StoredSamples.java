package io.kapi.registry;

import io.kapi.harness.ApiHarness;
import java.util.List;

/**
 * Objects of many built-in kinds, created through the API: the common kinds with their defaults, zero
 * values that mean something ({@code replicas: 0}, {@code restartCount: 0}, {@code ready: false},
 * {@code immutable: false}), micro-times, quantities, int-or-strings, raw JSON and base64 bytes.
 */
final class StoredSamples {

    private static final String NS = "/api/v1/namespaces/rt";

    /** Path and body of each sample, in creation order. */
    static final List<String[]> CREATES = List.of(
            new String[] {"/api/v1/namespaces", """
                    {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"rt"}}"""},
            new String[] {NS + "/configmaps", """
                    {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"a":"b"},
                     "annotations":{"x":""}},"immutable":false,"data":{"k":"v","empty":""},"binaryData":{"b":"AAEC"}}"""},
            new String[] {NS + "/secrets", """
                    {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque","data":{"k":"dmFsdWU="},
                     "stringData":{"t":"text"}}"""},
            new String[] {NS + "/serviceaccounts", """
                    {"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa"},"automountServiceAccountToken":false}"""},
            new String[] {NS + "/pods", """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"x"},
                     "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u-1",
                     "controller":true,"blockOwnerDeletion":false}]},
                     "spec":{"terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"nginx:1",
                     "ports":[{"containerPort":80}],"env":[{"name":"E","value":""}],
                     "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"0"}},
                     "livenessProbe":{"httpGet":{"port":"http","path":"/"},"periodSeconds":10},
                     "securityContext":{"runAsUser":0,"privileged":false}}],
                     "volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":420,"optional":false}},
                     {"name":"e","emptyDir":{}}]}}"""},
            new String[] {"/apis/apps/v1/namespaces/rt/deployments", """
                    {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},
                     "spec":{"replicas":0,"selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":
                     {"maxSurge":"25%","maxUnavailable":0}},"template":{"metadata":{"labels":{"app":"x"}},
                     "spec":{"containers":[{"name":"c","image":"nginx:1"}]}}}}"""},
            new String[] {"/apis/apps/v1/namespaces/rt/statefulsets", """
                    {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"st"},
                     "spec":{"replicas":1,"serviceName":"svc","selector":{"matchLabels":{"app":"s"}},
                     "template":{"metadata":{"labels":{"app":"s"}},"spec":{"containers":[{"name":"c","image":"i"}]}},
                     "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                     "resources":{"requests":{"storage":"1Gi"}}}}]}}"""},
            new String[] {"/apis/apps/v1/namespaces/rt/daemonsets", """
                    {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds"},
                     "spec":{"selector":{"matchLabels":{"app":"d"}},
                     "template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}"""},
            new String[] {"/apis/batch/v1/namespaces/rt/cronjobs", """
                    {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj"},"spec":{"schedule":"*/5 * * * *",
                     "suspend":false,"jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure",
                     "containers":[{"name":"hello","image":"busybox","command":["date"]}]}}}}}}"""},
            new String[] {"/apis/batch/v1/namespaces/rt/jobs", """
                    {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"backoffLimit":0,
                     "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}"""},
            new String[] {NS + "/services", """
                    {"apiVersion":"v1","kind":"Service","metadata":{"name":"svc"},"spec":{"type":"NodePort",
                     "selector":{"app":"x"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}"""},
            new String[] {NS + "/services", """
                    {"apiVersion":"v1","kind":"Service","metadata":{"name":"headless"},"spec":{"clusterIP":"None",
                     "ports":[{"port":53,"protocol":"UDP","targetPort":"dns"}]}}"""},
            new String[] {NS + "/endpoints", """
                    {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"ep"},"subsets":[{"addresses":
                     [{"ip":"10.0.0.1"}],"ports":[{"port":80}]}]}"""},
            new String[] {"/apis/discovery.k8s.io/v1/namespaces/rt/endpointslices", """
                    {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"es"},
                     "addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":false,
                     "serving":true}}],"ports":[{"port":80,"name":""}]}"""},
            new String[] {"/apis/networking.k8s.io/v1/namespaces/rt/ingresses", """
                    {"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"in"},"spec":{"rules":
                     [{"host":"a.example","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":
                     {"name":"svc","port":{"number":80}}}}]}}]}}"""},
            new String[] {"/apis/networking.k8s.io/v1/namespaces/rt/networkpolicies", """
                    {"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"np"},
                     "spec":{"podSelector":{},"policyTypes":["Ingress"],"ingress":[{"from":[{"ipBlock":
                     {"cidr":"10.0.0.0/8"}}],"ports":[{"port":80}]}]}}"""},
            new String[] {NS + "/persistentvolumeclaims", """
                    {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"pvc"},"spec":{"accessModes":
                     ["ReadWriteOnce"],"storageClassName":"","resources":{"requests":{"storage":"1Gi"}}}}"""},
            new String[] {"/api/v1/persistentvolumes", """
                    {"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-rt"},"spec":{"capacity":
                     {"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp/pv"}}}"""},
            new String[] {"/apis/storage.k8s.io/v1/storageclasses", """
                    {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"sc-rt"},
                     "provisioner":"example.com/p","allowVolumeExpansion":false,"parameters":{"a":"b"}}"""},
            new String[] {NS + "/resourcequotas", """
                    {"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"rq"},"spec":{"hard":{"pods":"10",
                     "requests.cpu":"0"}}}"""},
            new String[] {NS + "/limitranges", """
                    {"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":
                     "Container","default":{"cpu":"100m"}}]}}"""},
            new String[] {"/apis/rbac.authorization.k8s.io/v1/namespaces/rt/roles", """
                    {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":
                     [{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]}]}"""},
            new String[] {"/apis/rbac.authorization.k8s.io/v1/namespaces/rt/rolebindings", """
                    {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"rb"},
                     "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":
                     [{"kind":"ServiceAccount","name":"sa","namespace":"rt"}]}"""},
            new String[] {"/apis/autoscaling/v2/namespaces/rt/horizontalpodautoscalers", """
                    {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"hpa"},
                     "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":1,
                     "maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":
                     "Utilization","averageUtilization":50}}}]}}"""},
            new String[] {"/apis/policy/v1/namespaces/rt/poddisruptionbudgets", """
                    {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"pdb"},"spec":
                     {"minAvailable":0,"selector":{"matchLabels":{"app":"web"}}}}"""},
            new String[] {"/apis/coordination.k8s.io/v1/namespaces/rt/leases", """
                    {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":
                     {"holderIdentity":"h","leaseDurationSeconds":15,"acquireTime":"2024-01-02T03:04:05.123456Z",
                     "renewTime":"2024-01-02T03:04:06.000000Z","leaseTransitions":0}}"""},
            new String[] {"/apis/events.k8s.io/v1/namespaces/rt/events", """
                    {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev"},"eventTime":
                     "2024-01-02T03:04:05.123456Z","reportingController":"c","reportingInstance":"i","action":"A",
                     "reason":"R","type":"Normal","regarding":{"kind":"Pod","name":"p","namespace":"rt"}}"""},
            new String[] {NS + "/events", """
                    {"apiVersion":"v1","kind":"Event","metadata":{"name":"ev1"},"involvedObject":{"kind":"Pod",
                     "name":"p","namespace":"rt"},"reason":"R","message":"m","count":1,"firstTimestamp":"2024-01-02T03:04:05Z",
                     "lastTimestamp":"2024-01-02T03:04:05Z","type":"Normal","source":{"component":"c"}}"""},
            new String[] {"/apis/scheduling.k8s.io/v1/priorityclasses", """
                    {"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"zero"},"value":0,
                     "globalDefault":false}"""},
            new String[] {"/api/v1/nodes", """
                    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}},
                     "spec":{"podCIDR":"10.244.0.0/24","taints":[{"key":"k","effect":"NoSchedule"}]}}"""},
            new String[] {"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
                    {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":
                     {"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":
                     {"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},"versions":
                     [{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
                     "properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
                     "properties":{"size":{"type":"integer","minimum":0,"default":0},"tags":{"type":"array",
                     "items":{"type":"string"}}}}}}},"subresources":{"status":{}}}]}}"""},
            new String[] {"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", """
                    {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration",
                     "metadata":{"name":"vw"},"webhooks":[{"name":"v.example.com","admissionReviewVersions":["v1"],
                     "sideEffects":"None","clientConfig":{"url":"https://example.com/v","caBundle":"AAEC"},
                     "rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],
                     "resources":["pods"]}],"timeoutSeconds":5}]}"""});

    /** Status updates after the creates: kubelet-like pod and node status. */
    static final List<String[]> STATUSES = List.of(
            new String[] {NS + "/pods/p/status", """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"rt"},"status":{"phase":"Running",
                     "podIP":"10.0.0.5","startTime":"2024-01-02T03:04:05Z","conditions":[{"type":"Ready",
                     "status":"False","lastProbeTime":null,"lastTransitionTime":"2024-01-02T03:04:05Z"}],
                     "containerStatuses":[{"name":"c","ready":false,"restartCount":0,"image":"nginx:1",
                     "imageID":"","started":false,"state":{"waiting":{"reason":"ContainerCreating"}},
                     "lastState":{}}]}}"""},
            new String[] {"/api/v1/nodes/n1/status", """
                    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"capacity":{"cpu":"2",
                     "memory":"4Gi","pods":"110"},"allocatable":{"cpu":"1900m","memory":"3Gi","pods":"110"},
                     "conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2024-01-02T03:04:05Z",
                     "lastTransitionTime":"2024-01-02T03:04:05Z","reason":"KubeletReady","message":"ok"}],
                     "addresses":[{"type":"InternalIP","address":"10.1.0.1"}],"daemonEndpoints":
                     {"kubeletEndpoint":{"Port":10250}},"nodeInfo":{"machineID":"m","systemUUID":"s","bootID":"b",
                     "kernelVersion":"6","osImage":"o","containerRuntimeVersion":"c","kubeletVersion":"v1.34.0",
                     "kubeProxyVersion":"","operatingSystem":"linux","architecture":"amd64"}}}"""});

    private StoredSamples() {
    }

    /** Creates the samples through {@code api}, then their statuses; fails on any refusal. */
    static void create(ApiHarness api) {
        for (String[] c : CREATES) {
            var reply = api.post(c[0], c[1]);
            if (reply.code() != 201) {
                throw new AssertionError(c[0] + ": " + reply.code() + " " + reply.text());
            }
        }
        for (String[] s : STATUSES) {
            var reply = api.patch(s[0], "application/merge-patch+json", s[1]);
            if (reply.code() != 200) {
                throw new AssertionError(s[0] + ": " + reply.code() + " " + reply.text());
            }
        }
    }
}
