package io.kapi.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An audit policy ({@code --audit-policy-file}, audit.k8s.io/v1 {@code Policy}): the first rule that
 * matches a request gives its level, the stages not to record and whether to drop managed fields;
 * a request no rule matches is not audited. Loaded and checked as kube-apiserver's
 * {@code policy.LoadPolicyFromFile} does, with its error words.
 *
 * @param omitStages stages never recorded, whatever the rule
 * @param omitManagedFields the default of the rules that do not say
 */
public record Policy(List<PolicyRule> rules, Set<Stage> omitStages, boolean omitManagedFields) {

    private static final String LEVELS = "\"None\", \"Metadata\", \"Request\", \"RequestResponse\"";
    private static final String STAGES = "RequestReceived,ResponseStarted,ResponseComplete,Panic";

    /** What a request is audited with: level None means not at all. */
    public record RequestConfig(Level level, Set<Stage> omitStages, boolean omitManagedFields) {
        static final RequestConfig NONE = new RequestConfig(Level.NONE, Set.of(), false);
    }

    /** The level of the request of {@code user} (the authenticated one, before impersonation). */
    public RequestConfig evaluate(UserInfo user, RequestInfo info) {
        String verb = info.verb() == null ? "" : info.verb().apiName();
        for (PolicyRule rule : rules) {
            if (rule.matches(user, info, verb)) {
                return new RequestConfig(rule.level(), rule.omitStages(),
                        rule.omitManagedFields() == null ? omitManagedFields : rule.omitManagedFields());
            }
        }
        return new RequestConfig(Level.NONE, omitStages, omitManagedFields);
    }

    /**
     * Reads and checks a policy file (YAML or JSON).
     *
     * @throws IllegalArgumentException worded as kube-apiserver's: {@code failed to read file path ...},
     *         {@code failed decoding file ...}, {@code loaded illegal policy with N rules from file ...}
     */
    public static Policy load(Path file) {
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to read file path " + GoStrings.quote(file.toString()) + ": " + e);
        }
        JsonNode doc;
        try {
            doc = Json.yaml().readTree(data);
        } catch (IOException e) {
            throw new IllegalArgumentException("failed decoding file " + GoStrings.quote(file.toString()) + ": "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException("failed decoding file " + GoStrings.quote(file.toString())
                    + ": Object 'Kind' is missing in '" + new String(data).strip() + "'");
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (!kind.equals("Policy") || !apiVersion.equals("audit.k8s.io/v1")) {
            throw new IllegalArgumentException("failed decoding file " + GoStrings.quote(file.toString())
                    + ": no kind " + GoStrings.quote(kind) + " is registered for version " + GoStrings.quote(apiVersion)
                    + " in scheme \"k8s.io/apiserver/pkg/audit/policy/reader.go\"");
        }
        List<FieldError> errors = new ArrayList<>();
        Set<Stage> policyOmit = stages(doc.path("omitStages"), "omitStages", errors);
        boolean omitManaged = doc.path("omitManagedFields").asBoolean(false);
        List<PolicyRule> rules = new ArrayList<>();
        JsonNode list = doc.path("rules");
        for (int i = 0; i < list.size(); i++) {
            rules.add(rule(list.get(i), "rules[" + i + "]", policyOmit, errors));
        }
        if (!errors.isEmpty()) {
            String agg = errors.size() == 1 ? errors.getFirst().toString()
                    : errors.stream().map(FieldError::toString).collect(Collectors.joining(", ", "[", "]"));
            throw new IllegalArgumentException("loaded illegal policy with %d rules from file %s: %s"
                    .formatted(rules.size(), file, agg));
        }
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("loaded illegal policy with 0 rules from file " + file);
        }
        return new Policy(List.copyOf(rules), policyOmit, omitManaged);
    }

    private static PolicyRule rule(JsonNode r, String path, Set<Stage> policyOmit, List<FieldError> errors) {
        String levelName = r.path("level").asText("");
        Level level = Level.of(levelName);
        if (levelName.isEmpty()) {
            errors.add(FieldError.required(path + ".level", ""));
        } else if (level == null) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path + ".level", GoStrings.quote(levelName),
                    "supported values: " + LEVELS));
        }
        List<String> urls = strings(r.path("nonResourceURLs"));
        List<PolicyRule.GroupResources> resources = new ArrayList<>();
        JsonNode rs = r.path("resources");
        for (int i = 0; i < rs.size(); i++) {
            resources.add(groupResources(rs.get(i), path + ".resources[" + i + "]", errors));
        }
        List<String> namespaces = strings(r.path("namespaces"));
        if (!urls.isEmpty() && (!resources.isEmpty() || !namespaces.isEmpty())) {
            errors.add(FieldError.invalid(path + ".nonResourceURLs", goList(urls),
                    "rules cannot apply to both regular resources and non-resource URLs"));
        }
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            if (url.equals("*")) {
                continue;
            }
            if (!url.startsWith("/")) {
                errors.add(FieldError.invalid(path + ".nonResourceURLs[" + i + "]", GoStrings.quote(url),
                        "non-resource URL rules must begin with a '/' character"));
            }
            if (url.indexOf('*') >= 0 && url.indexOf('*') != url.length() - 1) {
                errors.add(FieldError.invalid(path + ".nonResourceURLs[" + i + "]", GoStrings.quote(url),
                        "non-resource URL wildcards '*' must be the final character of the rule"));
            }
        }
        Set<Stage> omit = EnumSet.noneOf(Stage.class);
        omit.addAll(policyOmit);
        omit.addAll(stages(r.path("omitStages"), path + ".omitStages", errors));
        JsonNode managed = r.path("omitManagedFields");
        return new PolicyRule(level == null ? Level.NONE : level, set(r.path("users")), set(r.path("userGroups")),
                set(r.path("verbs")), List.copyOf(resources), Set.copyOf(namespaces), urls, Set.copyOf(omit),
                managed.isBoolean() ? managed.booleanValue() : null);
    }

    private static PolicyRule.GroupResources groupResources(JsonNode g, String path, List<FieldError> errors) {
        String group = g.path("group").asText("");
        if (!group.isEmpty()) {
            for (String e : Identifiers.dns1123Subdomain(group)) {
                errors.add(FieldError.invalid(path + ".group", GoStrings.quote(group), e));
            }
        }
        List<String> resources = strings(g.path("resources"));
        List<String> names = strings(g.path("resourceNames"));
        if (!names.isEmpty() && resources.isEmpty()) {
            errors.add(FieldError.invalid(path + ".resourceNames", goList(names),
                    "using resourceNames requires at least one resource"));
        }
        return new PolicyRule.GroupResources(group, resources, Set.copyOf(names));
    }

    private static Set<Stage> stages(JsonNode list, String path, List<FieldError> errors) {
        Set<Stage> stages = EnumSet.noneOf(Stage.class);
        for (int i = 0; i < list.size(); i++) {
            Stage s = Stage.of(list.get(i).asText());
            if (s == null) {
                errors.add(FieldError.invalid(path + "[" + i + "]", GoStrings.quote(list.get(i).asText()),
                        "allowed stages are " + STAGES));
            } else {
                stages.add(s);
            }
        }
        return Set.copyOf(stages);
    }

    private static List<String> strings(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return List.copyOf(out);
    }

    private static Set<String> set(JsonNode list) {
        return Set.copyOf(new LinkedHashSet<>(strings(list)));
    }

    /** A string slice as Go's {@code %#v} shows it in a field error: {@code []string{"a", "b"}}. */
    private static String goList(List<String> values) {
        return Arrays.stream(values.toArray(String[]::new)).map(GoStrings::quote)
                .collect(Collectors.joining(", ", "[]string{", "}"));
    }
}
