package io.kapi.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CelEnvironmentTest {

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final JsonNode SCHEMA = json("""
            {'type':'object','properties':{
              'replicas':{'type':'integer'},
              'name':{'type':'string','maxLength':20},
              'tags':{'type':'array','maxItems':10,'items':{'type':'string','maxLength':8}},
              'free':{'type':'array','items':{'type':'string'}},
              'labels':{'type':'object','additionalProperties':{'type':'string'}},
              'started':{'type':'string','format':'date-time'},
              'port':{'x-kubernetes-int-or-string':true}}}""");

    private final CelEnvironment typed = CelEnvironment.builder()
            .variable("self", CelSchema.of(SCHEMA, null, "Object")).build();
    private final CelEnvironment dyn = CelEnvironment.builder().dynamic("object").build();

    private Object eval(CelEnvironment env, String expr, Map<String, ?> vars) {
        return env.compile(expr).evaluate(vars, CelBudget.unlimited());
    }

    private Object eval(String expr) {
        return eval(dyn, expr, Map.of());
    }

    @Test
    @DisplayName("an expression is type-checked against the schema: unknown fields and wrong types do not compile")
    void typeChecking() {
        CelError unknown = assertThrows(CelError.class, () -> typed.compile("self.nope == 1"));
        assertEquals(CelError.Kind.COMPILE, unknown.kind());
        assertTrue(unknown.getMessage().startsWith("compilation failed: ERROR: <input>:1:5: undefined field 'nope'"),
                unknown.getMessage());
        assertThrows(CelError.class, () -> typed.compile("self.replicas + 'x'"));
        assertThrows(CelError.class, () -> typed.compile("self.name > 1"));
        assertEquals("bool", typed.compile("self.replicas <= 5").resultType());
        assertEquals("list(string)", typed.compile("self.tags").resultType());
    }

    @Test
    @DisplayName("a grammar error is worded as cel-go words it: Syntax error, then what the parser expected")
    void syntaxErrors() {
        CelError error = assertThrows(CelError.class, () -> dyn.compile("1 +"));
        assertEquals("compilation failed: ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', "
                + "'{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
                + "IDENTIFIER}\n | 1 +\n | ...^", error.getMessage());
    }

    /** Runs {@code task} on a platform thread with a 96 KiB stack: a caller already deep in its own. */
    private static <T> T onSmallStack(java.util.function.Supplier<T> task) throws Exception {
        java.util.concurrent.atomic.AtomicReference<Object> out = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                out.set(task.get());
            } catch (Throwable e) {
                out.set(e);
            }
        }, "small-stack", 96 * 1024);
        t.start();
        t.join();
        if (out.get() instanceof Throwable e) {
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError("the compilation failed with " + e, e);
        }
        @SuppressWarnings("unchecked")
        T result = (T) out.get();
        return result;
    }

    @Test
    @DisplayName("brackets nested 250 deep or more are refused with cel-go's recursion error, whatever the stack left")
    void recursionLimit() throws Exception {
        String expected = "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250";
        for (String deep : List.of("(".repeat(5000) + "1" + ")".repeat(5000) + " == 1", "(".repeat(250) + "1",
                "[".repeat(3000) + "1" + "]".repeat(3000), "size(".repeat(300) + "'a'" + ")".repeat(300),
                "{1:".repeat(400) + "1" + "}".repeat(400), "[(".repeat(20000))) {
            CelError error = assertThrows(CelError.class, () -> onSmallStack(() -> dyn.compile(deep)));
            assertEquals(CelError.Kind.COMPILE, error.kind());
            assertEquals(expected, error.getMessage());
        }
        CelError chain = assertThrows(CelError.class, () -> dyn.compile("object" + ".b".repeat(300) + " == 1"));
        assertEquals(expected, chain.getMessage(), "cel-java's own recursion error, as cel-go words it");
    }

    @Test
    @DisplayName("an expression nested just under the limit compiles even from a thread with little stack left")
    void underTheLimit() throws Exception {
        assertEquals("bool", onSmallStack(() -> dyn.compile("(".repeat(249) + "1" + ")".repeat(249) + " == 1"))
                .resultType());
        assertEquals("bool", dyn.compile("'" + "(".repeat(400) + "' == \"" + "[".repeat(400) + "\" // ((((")
                .resultType(), "brackets in strings and comments do not count");
    }

    @Test
    @DisplayName("matches, find and findAll are Go's RE2: unanchored, linear, Go's syntax and limits, Go's errors")
    void regularExpressions() {
        assertEquals(true, eval("'abc'.matches('b') && matches('abc', 'c$') && !'abc'.matches('^b')"));
        assertEquals(true, eval("'" + "a".repeat(20_000) + "'.matches('^(a|a)+$')"));
        assertEquals("b1", eval("'ab1c'.find('[a-z][0-9]')"));
        assertEquals(List.of("a", "b"), eval("'a1b2c'.findAll('[a-z]', 2)"));
        // a pattern made at run time fails there, with Go's error (a literal one fails to compile: literalPatterns)
        CelError lookahead = assertThrows(CelError.class, () -> eval("'ab'.matches('a(?=' + 'b)')"));
        assertEquals(CelError.Kind.EVALUATION, lookahead.kind());
        assertEquals("error parsing regexp: invalid or unsupported Perl syntax: `(?=`", lookahead.getMessage());
        assertEquals("error parsing regexp: invalid repeat count: `{1000}`",
                assertThrows(CelError.class, () -> eval("'a'.matches('(a{1000})' + '{1000}')")).getMessage());
        String deep = "(".repeat(3000) + "x" + ")".repeat(3000);
        assertEquals("error parsing regexp: expression nests too deeply: `" + deep + "`",
                assertThrows(CelError.class, () -> eval("'x'.matches('" + deep + "' + '')")).getMessage());
        assertEquals("Illegal regex: error parsing regexp: missing closing ): `(`",
                assertThrows(CelError.class, () -> eval("'x'.find('(')")).getMessage());
    }

    @Test
    @DisplayName("a literal pattern RE2 refuses fails the compile, as cel-go's ValidateRegexLiterals in kube's "
            + "environment since 1.29: 'invalid matches argument' at the pattern")
    void literalPatterns() {
        for (String pattern : List.of("a(?=b)", "(a)\\\\1", "a++", "(a{1000}){1000}", "[z-a]", "(")) {
            String expression = "'ab'.matches('" + pattern + "')";
            CelError refused = assertThrows(CelError.class, () -> dyn.compile(expression), pattern);
            assertEquals(CelError.Kind.COMPILE, refused.kind(), pattern);
            assertEquals("compilation failed: ERROR: <input>:1:14: invalid matches argument\n | " + expression
                    + "\n | .............^", refused.getMessage(), pattern);
        }
        assertEquals(true, eval("'ab'.matches('[[:alpha:]]+') && 'ab'.matches('(?P<x>a)b')"), "patterns RE2 accepts");
    }

    @Test
    @DisplayName("values follow the schema: integers, maps, lists, timestamps and int-or-string")
    void evaluationWithSchema() {
        JsonNode self = json("{'replicas':9,'name':'web','tags':['a','b'],'labels':{'app':'x'},"
                + "'started':'2024-01-02T03:04:05Z','port':'http'}");
        Map<String, JsonNode> vars = Map.of("self", self);
        assertEquals(false, eval(typed, "self.replicas <= 5", vars));
        assertEquals(true, eval(typed, "self.tags.all(t, t.size() == 1) && 'app' in self.labels", vars));
        assertEquals(2024L, eval(typed, "self.started.getFullYear()", vars));
        assertEquals(true, eval(typed, "self.port == 'http'", vars));
        assertEquals(true, eval(typed, "!has(self.free)", vars));
        CelError missing = assertThrows(CelError.class, () -> eval(typed, "self.free.size() > 0", vars));
        assertEquals(CelError.Kind.EVALUATION, missing.kind());
        assertEquals("no such key: free", missing.getMessage());
    }

    @Test
    @DisplayName("an optional variable is absent on create and present on update (optionalOldSelf)")
    void optionalVariable() {
        CelEnvironment env = CelEnvironment.builder().variable("self", CelSchema.of(SCHEMA, null, "Object"))
                .optionalVariable("oldSelf", CelSchema.of(SCHEMA, null, "Object")).build();
        CelExpression rule = env.compile("oldSelf.hasValue() ? self.replicas >= oldSelf.value().replicas : true");
        JsonNode self = json("{'replicas':3}");
        assertTrue(rule.test(Map.of("self", self, "oldSelf", Json.NODES.missingNode()), CelBudget.unlimited()));
        assertFalse(rule.test(Map.of("self", self, "oldSelf", json("{'replicas':4}")), CelBudget.unlimited()));
    }

    @Test
    @DisplayName("kube's string, list, set, optional and binding extensions")
    void extensions() {
        assertEquals("abc", eval("'ABC'.lowerAscii()"));
        assertEquals(List.of("a", "b"), eval("'a,b'.split(',')"));
        assertEquals("a-b", eval("['a','b'].join('-')"));
        assertEquals(true, eval("[1,2,3].isSorted() && [3,1,2].sum() == 6 && [3,1,2].min() == 1"));
        assertEquals(2L, eval("[1,2,3].indexOf(3)"));
        assertEquals(true, eval("sets.contains([1,2,3], [2])"));
        assertEquals(4L, eval("cel.bind(x, 2, x * x)"));
        assertEquals("none", eval(dyn, "object.?spec.?name.orValue('none')", Map.of("object", json("{'spec':{}}"))));
        assertEquals(true, eval("{'a': 1}.all(k, v, v == 1)"));
        assertEquals("123", eval("'abc123'.find('[0-9]+')"));
        assertEquals(List.of("1", "2"), eval("'a1b2c3'.findAll('[0-9]', 2)"));
        assertEquals(true, eval("'abc'.matches('^a.c$')"));
    }

    @Test
    @DisplayName("kube's quantity, URL, IP and CIDR libraries")
    void kubeLibraries() {
        assertEquals(true, eval("quantity('1.5Gi').isGreaterThan(quantity('1Gi'))"));
        assertEquals(1536L * 1024 * 1024, eval("quantity('1.5Gi').asInteger()"));
        assertEquals(true, eval("quantity('500m').add(quantity('500m')) == quantity('1')"));
        assertEquals(false, eval("isQuantity('1.5.Gi')"));
        assertEquals("example.com:8443", eval("url('https://example.com:8443/a%20b?x=1').getHost()"));
        assertEquals("8443", eval("url('https://example.com:8443/').getPort()"));
        assertEquals(List.of("1", "2"), eval("url('https://e.com/?x=1&x=2').getQuery()['x']"));
        assertEquals(false, eval("isURL('not a url')"));
        assertEquals(true, eval("cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))"));
        assertEquals(false, eval("cidr('10.0.0.0/8').containsIP('11.0.0.1')"));
        assertEquals("10.0.0.0/8", eval("string(cidr('10.1.2.3/8').masked())"));
        assertEquals(6L, eval("ip('2001:db8::1').family()"));
        assertEquals(false, eval("ip.isCanonical('2001:DB8::1')"));
        assertEquals(true, eval("ip.isCanonical('2001:db8::1')"));
        assertEquals("2001:db8::1", eval("string(ip('2001:DB8:0:0:0::1'))"));
        assertEquals("2001:db8:0:1:1:1:1:1", eval("string(ip('2001:db8:0:1:1:1:1:1'))"));
        assertEquals("2001:0:0:1::1", eval("string(ip('2001:0:0:1:0:0:0:1'))"));
        assertEquals("2001:db8::", eval("string(cidr('2001:db8::1/32').masked().ip())"));
        assertEquals(true, eval("ip('127.0.0.1').isLoopback()"));
        assertEquals(false, eval("isIP('010.0.0.1')"));
        CelError bad = assertThrows(CelError.class, () -> eval("quantity('x') == quantity('1')"));
        assertEquals(CelError.Kind.EVALUATION, bad.kind());
    }

    @Test
    @DisplayName("the authorizer library asks the bound authorizer")
    void authorizer() {
        CelAuthorizer authz = new CelAuthorizer() {
            @Override
            public Decision authorize(Check check) {
                boolean ok = "apps".equals(check.group()) && check.resource().equals("deployments")
                        && check.verb().equals("create");
                return new Decision(ok ? "allow" : "deny", ok ? "" : "no", "");
            }

            @Override
            public CelAuthorizer forServiceAccount(String namespace, String name) {
                return this;
            }
        };
        CelEnvironment env = CelEnvironment.builder().authorizer().build();
        Map<String, Object> vars = Map.of("authorizer", authz, "authorizer.requestResource",
                CelAuthorizer.requestResource(authz, "apps", "deployments", "", "ns", "d"));
        assertEquals(true, eval(env, "authorizer.group('apps').resource('deployments').namespace('x')"
                + ".check('create').allowed()", vars));
        assertEquals("no", eval(env, "authorizer.path('/healthz').check('get').reason()", vars));
        assertEquals(true, eval(env, "authorizer.requestResource.check('create').allowed()", vars));
    }

    @Test
    @DisplayName("an evaluation past the per-call limit or the budget fails with kube's cost error")
    void runtimeCost() {
        CelEnvironment small = CelEnvironment.builder().dynamic("object")
                .limits(new CelLimits(20_000, 100_000, 10_000, 1_000_000, 10_000_000, 3 << 20)).build();
        CelExpression heavy = small.compile("object.all(x, object.all(y, x + y >= 0))");
        JsonNode big = Json.MAPPER.valueToTree(java.util.stream.IntStream.range(0, 100).boxed().toList());
        CelError error = assertThrows(CelError.class, () -> heavy.evaluate(Map.of("object", big), CelBudget.unlimited()));
        assertEquals(CelError.Kind.COST, error.kind());
        assertEquals("operation cancelled: actual cost limit exceeded", error.getMessage());
        CelExpression light = small.compile("object.all(x, x >= 0)");
        CelBudget budget = new CelBudget(5_000);
        light.evaluate(Map.of("object", big), budget);
        long used = 5_000 - budget.remaining();
        assertTrue(used > 100 && used < 5_000, "cost taken: " + used);
        CelError spent = assertThrows(CelError.class, () -> {
            for (int i = 0; i < 100; i++) {
                light.evaluate(Map.of("object", big), budget);
            }
        });
        assertEquals(CelError.Kind.COST, spent.kind());
    }

    @Test
    @DisplayName("the estimated cost follows maxItems and maxLength, and is huge for unbounded lists")
    void estimatedCost() {
        long bounded = typed.compile("self.tags.all(t, t.startsWith('a'))").estimatedCost();
        long unbounded = typed.compile("self.free.all(t, t.startsWith('a'))").estimatedCost();
        long nested = typed.compile("self.free.all(a, self.free.all(b, a == b))").estimatedCost();
        assertTrue(bounded < 200, "bounded: " + bounded);
        assertTrue(unbounded > 1_000_000, "unbounded: " + unbounded);
        assertTrue(nested > CelLimits.KUBE.staticCostLimit(), "nested: " + nested);
        assertTrue(typed.compile("self.replicas <= 5").estimatedCost() < 10);
    }

    @Test
    @DisplayName("results convert back to JSON")
    void resultsToJson() {
        assertEquals("{\"a\":[1,\"x\",true,null]}", CelValues.toJson(eval("{'a': [1, 'x', true, null]}")).toString());
        assertEquals(Json.NODES.textNode("1536Mi"), CelValues.toJson(eval("quantity('1.5Gi')")));
        assertEquals(Optional.of("x"), eval("optional.of('x')"));
    }
}
