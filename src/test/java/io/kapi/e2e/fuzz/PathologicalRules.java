package io.kapi.e2e.fuzz;

import java.util.Map;
import java.util.Random;

/**
 * Users' regular expressions and CEL at their worst: objects of a custom resource whose schema has patterns
 * that backtrack exponentially in a backtracking engine ({@code ^(a|a)+$}) and CEL rules that match a pattern
 * the object itself supplies, given long near-miss strings; admission policies and CRDs (as dry runs) with CEL
 * nested past cel-go's recursion limit, long operator chains, huge literals, and regular expressions Go's RE2
 * refuses (backreferences, look-around, possessive repetition) or accepts where Java would not ({@code
 * [[:alpha:]]}). kube compiles users' patterns with RE2, so matching is linear: the answers are 201 or 422,
 * each as kube gives it where it is certain (shallow CEL and RE2-valid patterns are accepted, CEL nested 300
 * deep and RE2-invalid patterns refused), and nothing may be {@code 5xx} or hang.
 */
final class PathologicalRules implements Family {

    private static final String GROUP = "fuzz.kapi.io";
    private static final String OBJECTS = "/apis/" + GROUP + "/v1/namespaces/default/patterned";
    private static final String[] BACKTRACKING = {"^(a|a)+$", "^(a+)+$", "^(a|aa)+$", "^([a-z]+)*$", "(x+x+)+y",
            "^(\\\\w+\\\\s?)*$"};
    /** Patterns RE2 refuses (kube: 422), as written in a JSON string. */
    private static final String[] RE2_INVALID = {"(a)\\\\1", "(?=a)b", "(?!a)b", "(?<=a)b", "a++", "a{2}+", "\\\\Z",
            "(?<name>a)\\\\k<name>", "[z-a]", "(", "a{1001}"};
    /** Patterns RE2 accepts (kube: 201), some of which java.util.regex would not read alike. */
    private static final String[] RE2_VALID = {"[[:alpha:]]+", "\\\\pL+", "(?i)abc", "^a{0,1000}$", "(?P<n>a)",
            "\\\\Qa.b\\\\E", "[\\\\d\\\\-]+"};

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        createCrd(target);
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(4)) {
                case 0, 1 -> object(target, random, tally);
                case 2 -> policy(target, random, tally);
                default -> crd(target, random, tally);
            }
        }
        target.admin("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/patterned." + GROUP, null);
    }

    private static void createCrd(Target target) throws Exception {
        String properties = """
                "s":{"type":"string","pattern":"%s"},"t":{"type":"string","maxLength":20000},
                "p":{"type":"string","maxLength":64}"""
                .formatted(BACKTRACKING[0]);
        String rules = """
                [{"rule":"!has(self.t) || !has(self.p) || self.t.matches(self.p)","message":"t must match p"},
                 {"rule":"!has(self.t) || !self.t.matches('^(a+)+$') || self.t.size() < 10000"}]""";
        Target.Answer a = target.admin("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                crdJson("patterned", properties, rules));
        if (a.status() != 201 && a.status() != 409) {
            throw new IllegalStateException("CRD: " + a.outcome() + " " + a.text());
        }
        for (int i = 0; i < 300; i++) {
            if (target.admin("GET", OBJECTS, null).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the CRD was never served");
    }

    private static String crdJson(String plural, String properties, String rules) {
        return """
                {"metadata":{"name":"%1$s.%2$s"},"spec":{"group":"%2$s","scope":"Namespaced",
                 "names":{"plural":"%1$s","singular":"%1$s-one","kind":"Patterned%3$s","listKind":"Patterned%3$sList"},
                 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
                 "properties":{"spec":{"type":"object","properties":{%4$s},"x-kubernetes-validations":%5$s}}}}}]}}"""
                .formatted(plural, GROUP, Integer.toHexString(plural.hashCode() & 0xfff), properties, rules);
    }

    /** An object with long near-miss strings and a pattern of its own. */
    private static void object(Target target, Random random, Tally tally) throws InterruptedException {
        int n = 1 + random.nextInt(random.nextBoolean() ? 1000 : 60_000);
        String s = "a".repeat(n) + (random.nextBoolean() ? "!" : "");
        String t = "a".repeat(1 + random.nextInt(Math.min(n, 25_000))) + (random.nextBoolean() ? "b" : "");
        String p = random.nextBoolean() ? pick(random, BACKTRACKING) : pick(random, RE2_INVALID);
        String body = """
                {"apiVersion":"%s/v1","kind":"Patterned%s","metadata":{"generateName":"p-"},
                 "spec":{"s":"%s","t":"%s","p":"%s"}}""".formatted(GROUP, Integer.toHexString("patterned".hashCode() & 0xfff),
                s, t, p);
        Target.Answer a = target.admin("POST", OBJECTS + "?dryRun=All", body);
        tally.count(a, "POST an object: s " + s.length() + " chars, t " + t.length() + ", p " + p);
    }

    /** A ValidatingAdmissionPolicy (dry run) with one pathological expression. */
    private static void policy(Target target, Random random, Tally tally) throws InterruptedException {
        String expected = null;
        String expression;
        switch (random.nextInt(7)) {
            case 0 -> {
                int depth = random.nextBoolean() ? 1 + random.nextInt(50) : 300 + random.nextInt(20_000);
                expression = "(".repeat(depth) + "true" + ")".repeat(depth);
                expected = depth <= 50 ? "201" : "422";
            }
            case 1 -> {
                int depth = random.nextBoolean() ? 1 + random.nextInt(30) : 300 + random.nextInt(5_000);
                expression = "size(" + "[".repeat(depth) + "1" + "]".repeat(depth) + ") == 1";
                expected = depth <= 30 ? "201" : "422";
            }
            case 2 -> expression = "true" + " && true".repeat(1 + random.nextInt(20_000));
            case 3 -> {
                expression = "object.metadata.name.matches('" + cel(pick(random, RE2_INVALID)) + "')";
                expected = "422";
            }
            case 4 -> {
                expression = "object.metadata.name.matches('" + cel(pick(random, RE2_VALID)) + "')";
                expected = "201";
            }
            case 5 -> expression = "'" + "a".repeat(1 + random.nextInt(200_000)) + "'.matches('^(a|a)+$')";
            default -> expression = "object.metadata" + ".x".repeat(1 + random.nextInt(5_000)) + " == 1";
        }
        String body = """
                {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
                 "metadata":{"generateName":"fz-"},"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":
                 [{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
                 "validations":[{"expression":"%s"}]}}""".formatted(expression);
        Target.Answer a = target.admin("POST",
                "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?dryRun=All", body);
        String what = "POST a policy: " + (expression.length() > 120 ? expression.substring(0, 120) + "...("
                + expression.length() + ")" : expression);
        if (expected != null) {
            tally.expect(expected, a, what + " -> " + a.text());
        } else {
            tally.count(a, what);
        }
    }

    /** A CRD (dry run) with a pattern or a CEL rule that RE2 accepts or refuses. */
    private static void crd(Target target, Random random, Tally tally) throws InterruptedException {
        boolean valid = random.nextBoolean();
        String pattern = valid ? pick(random, RE2_VALID) : pick(random, RE2_INVALID);
        boolean inCel = random.nextBoolean();
        String properties = inCel ? "\"s\":{\"type\":\"string\"}"
                : "\"s\":{\"type\":\"string\",\"pattern\":\"%s\"}".formatted(pattern);
        String rules = inCel ? "[{\"rule\":\"self.s.matches('%s')\"}]".formatted(cel(pattern)) : "[]";
        String plural = "fz" + Integer.toHexString(random.nextInt(0xfffff));
        Target.Answer a = target.admin("POST",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All", crdJson(plural, properties, rules));
        tally.expect(valid ? "201" : "422", a, "POST a CRD with " + (inCel ? "CEL " : "pattern ") + pattern
                + " -> " + a.text());
    }

    /** A pattern written for a JSON string, written for a CEL string inside it (each backslash escaped again). */
    private static String cel(String jsonPattern) {
        return jsonPattern.replace("\\\\", "\\\\\\\\");
    }

    private static String pick(Random random, String[] from) {
        return from[random.nextInt(from.length)];
    }
}
