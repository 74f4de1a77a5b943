package io.kapi.encryption;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * kube-apiserver's {@code ValidateEncryptionConfiguration} and the masking rules of its transformer
 * set-up: the errors in kube's words, at kube's field paths, all of them reported at once (an aggregate
 * in brackets when there are several, as Go's {@code ToAggregate}).
 */
final class ConfigValidation {

    static final List<Integer> AES_SIZES = List.of(16, 24, 32);

    private final boolean reload;
    private final List<String> errors = new ArrayList<>();

    ConfigValidation(boolean reload) {
        this.reload = reload;
    }

    void required(String path, String detail) {
        errors.add(path + ": Required value: " + detail);
    }

    void invalid(String path, String detail) {
        errors.add(path + ": Invalid value: " + detail);
    }

    void invalid(String path, String value, String detail) {
        errors.add(path + ": Invalid value: \"" + value + "\": " + detail);
    }

    void invalidRedacted(String path, String detail) {
        invalid(path, "REDACTED", detail);
    }

    /** @throws IllegalArgumentException when any rule is broken */
    void check(EncryptionConfiguration config) {
        if (config.rules().isEmpty()) {
            required("resources", "at least one resources is required");
        }
        Set<String> kmsNames = new HashSet<>();
        for (int i = 0; i < config.rules().size(); i++) {
            var rule = config.rules().get(i);
            String r = "resources[" + i + "].resources";
            String p = "resources[" + i + "].providers";
            if (rule.resources().isEmpty()) {
                required(r, "at least one " + r + " is required");
            }
            overlap(rule.resources(), r);
            names(rule.resources(), r);
            if (rule.providers().isEmpty() && errors.stream().noneMatch(e -> e.startsWith(p + "["))) {
                required(p, "at least one " + p + " is required");
            }
            for (int j = 0; j < rule.providers().size(); j++) {
                if (rule.providers().get(j) instanceof ProviderConfig.Kms kms) {
                    kms(kms, p + "[" + j + "].kms", kmsNames);
                    kmsNames.add(kms.name());
                }
            }
        }
        if (errors.isEmpty()) {
            masking(config);
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.size() == 1 ? errors.getFirst()
                    : "[" + String.join(", ", errors) + "]");
        }
    }

    private void overlap(List<String> resources, String path) {
        if (resources.size() < 2) {
            return;
        }
        boolean duplicate = false;
        boolean overlap = false;
        for (int i = 0; i < resources.size(); i++) {
            GroupResource a = GroupResource.parse(resources.get(i));
            for (int j = 0; j < resources.size(); j++) {
                GroupResource b = GroupResource.parse(resources.get(j));
                if (i == j) {
                    continue;
                }
                if (a.equals(b)) {
                    duplicate = true;
                } else if (a.equals(GroupResource.ANY) || a.group().equals(b.group())
                        && (a.resource().equals("*") || b.resource().equals("*"))) {
                    overlap = true;
                }
            }
        }
        String value = resources.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(", ", "[]string{", "}"));
        if (duplicate) {
            invalid(path, value + ": the same resource cannot be specified multiple times");
        }
        if (overlap) {
            invalid(path, value + ": using overlapping resources such as 'secrets' and '*.' in the same resource "
                    + "list is not allowed as they will be masked");
        }
    }

    private void names(List<String> resources, String path) {
        for (int j = 0; j < resources.size(); j++) {
            String res = resources.get(j);
            String at = path + "[" + j + "]";
            GroupResource gr = GroupResource.parse(res);
            String problem;
            if (!res.toLowerCase(Locale.ROOT).equals(res)) {
                problem = "resource name should not contain capital letters";
            } else if (res.equals("*")) {
                problem = "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
            } else if (Set.of("apiserveripinfo", "serviceipallocations", "servicenodeportallocations").contains(res)) {
                problem = "resources which do not have REST API/s cannot be encrypted";
            } else if (gr.group().equals("events.k8s.io")) {
                problem = "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' "
                        + "instead in the config file";
            } else if (gr.group().equals("extensions")) {
                problem = "'extensions' group has been removed and cannot be used for encryption";
            } else if (gr.group().equals("*") && !gr.resource().equals("*")) {
                problem = "encrypting the same resource across groups is not supported";
            } else {
                continue;
            }
            invalid(at, res, problem);
        }
    }

    private void kms(ProviderConfig.Kms kms, String path, Set<String> names) {
        if (kms.name().isEmpty()) {
            required(path + ".name", "name is a mandatory field for a provider");
        }
        if (!kms.apiVersion().equals("v1") && kms.name().contains(":")) {
            invalid(path + ".name", kms.name(), "invalid KMS provider name " + kms.name() + ", must not contain ':'");
        }
        if ((reload || !kms.apiVersion().equals("v1")) && names.contains(kms.name())) {
            invalid(path + ".name", kms.name(), "duplicate KMS provider name " + kms.name() + ", names must be unique");
        }
        if (kms.timeout().isNegative() || kms.timeout().isZero()) {
            invalid(path + ".timeout", kms.timeout().toString(), "timeout should be a positive value");
        }
        endpoint(kms.endpoint(), path + ".endpoint");
        if (!kms.apiVersion().equals("v1") && !kms.apiVersion().equals("v2")) {
            invalid(path + ".apiVersion", kms.apiVersion(),
                    "unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported");
        } else if (kms.apiVersion().equals("v1")) {
            errors.add("KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead. "
                    + "Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.");
        }
    }

    private void endpoint(String endpoint, String path) {
        if (endpoint.isEmpty()) {
            invalid(path, "", "endpoint is a mandatory field for a kms");
            return;
        }
        try {
            String scheme = new URI(endpoint).getScheme();
            if (!"unix".equals(scheme)) {
                invalid(path, endpoint, "unsupported scheme \"" + (scheme == null ? "" : scheme)
                        + "\" for KMS provider, only unix is supported");
            }
        } catch (URISyntaxException e) {
            invalid(path, endpoint, "invalid endpoint for kms provider, error: " + e.getMessage());
        }
    }

    /** A resource named after an earlier rule's {@code *.group} or {@code *.*} is never reached: kube refuses it. */
    private void masking(EncryptionConfiguration config) {
        Map<GroupResource, Integer> seen = new HashMap<>();
        for (int i = 0; i < config.rules().size(); i++) {
            for (String res : config.rules().get(i).resources()) {
                GroupResource gr = GroupResource.parse(res);
                for (GroupResource wider : List.of(new GroupResource(gr.group(), "*"), GroupResource.ANY)) {
                    if (seen.containsKey(wider)) {
                        throw new IllegalArgumentException("resource \"" + gr + "\" is masked by earlier rule \""
                                + wider + "\"");
                    }
                }
            }
            for (String res : config.rules().get(i).resources()) {
                seen.putIfAbsent(GroupResource.parse(res), i);
            }
        }
    }
}
