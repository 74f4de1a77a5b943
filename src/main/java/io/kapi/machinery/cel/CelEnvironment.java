package io.kapi.machinery.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.bundle.CelFactory;
import dev.cel.checker.CelStandardDeclarations;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelStandardFunctions;
import io.kapi.machinery.FreshStack;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The project's one CEL environment: the CEL standard library with kube's additions — the strings,
 * sets, optional-types, two-variable comprehension and {@code cel.bind} extensions, and kube's lists,
 * regex, URL, quantity, IP, CIDR and (when asked for) authorization libraries — over declared variables
 * typed by OpenAPI schemas ({@link CelSchema}) or plain CEL types. Used by admission policies, webhook
 * match conditions and CRD validation rules.
 *
 * <pre>{@code
 * CelEnvironment env = CelEnvironment.builder().variable("self", CelSchema.of(schema, refs, "Object")).build();
 * CelExpression rule = env.compile("self.replicas <= self.maxReplicas");   // CelError(COMPILE) if wrong
 * long worst = rule.estimatedCost();                                        // against CelLimits.KUBE
 * Object ok = rule.evaluate(Map.of("self", objectJson), new CelBudget(CelLimits.KUBE.runtimeBudget()));
 * }</pre>
 *
 * Immutable and thread-safe; compile once, evaluate many times.
 */
public final class CelEnvironment {

    private static final List<CelLibrary> KUBE_LIBRARIES = List.of(new ListsLibrary(), new RegexLibrary(),
            new UrlLibrary(), new QuantityLibrary(), new NetLibrary());

    private static final java.util.regex.Pattern ANTLR_ERROR = java.util.regex.Pattern.compile(
            "(?m)^(ERROR: [^:\\n]*:\\d+:\\d+: )(mismatched input |extraneous input |missing |no viable alternative"
                    + "|token recognition error)");

    private static final java.util.regex.Pattern RECURSION_ERROR = java.util.regex.Pattern.compile(
            "(?m)^ERROR: [^:\\n]*:-?\\d+:\\d+: Expression recursion limit exceeded\\. limit: \\d+$");

    private final Cel cel;
    private final Map<String, Variable> variables;
    private final CelLimits limits;
    private final boolean objectConstruction;

    /** A declared variable: a schema, or only a type. */
    record Variable(String name, CelType type, CelSchema schema) {
    }

    private CelEnvironment(Cel cel, Map<String, Variable> variables, CelLimits limits, boolean objectConstruction) {
        this.cel = cel;
        this.variables = variables;
        this.limits = limits;
        this.objectConstruction = objectConstruction;
    }

    public static Builder builder() {
        return new Builder();
    }

    public CelLimits limits() {
        return limits;
    }

    /**
     * Parses and type-checks {@code expression}.
     *
     * @throws CelError {@link CelError.Kind#COMPILE}, the message as kube words it
     *         ({@code compilation failed: ERROR: <input>:1:5: ...})
     */
    public CelExpression compile(String expression) {
        if (ParseDepth.exceeded(expression)) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + ParseDepth.ERROR);
        }
        return onFreshStack(() -> compileHere(expression));
    }

    private CelExpression compileHere(String expression) {
        CelValidationResult result;
        try {
            result = objectConstruction ? compileWithObjects(expression) : cel.compile(expression);
        } catch (RuntimeException e) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + e.getMessage());
        }
        if (result.hasError()) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + syntaxWording(result.getErrorString()));
        }
        try {
            var ast = result.getAst();
            java.util.Optional<String> literals = RegexLiterals.errors(ast);
            if (literals.isPresent()) {
                throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + literals.get());
            }
            var runnable = objectConstruction ? ObjectConstruction.rewrite(ast) : ast;
            return new CelExpression(expression, ast, cel.createProgram(runnable), this);
        } catch (dev.cel.common.CelException e) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + e.getMessage());
        }
    }

    /**
     * Runs a compilation on a stack of its own ({@link FreshStack}): the parser and checker recurse once per
     * level of the expression (up to {@link ParseDepth#LIMIT} levels take a few hundred KiB of stack), which
     * must not depend on how deep the caller's stack already is. A stack overflow all the same is the
     * expression's depth, reported as cel-go reports one too deep.
     */
    private static CelExpression onFreshStack(java.util.function.Supplier<CelExpression> compilation) {
        try {
            return FreshStack.call(compilation);
        } catch (StackOverflowError e) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + ParseDepth.ERROR);
        }
    }

    /**
     * The parser's errors as cel-go words them: errors of the grammar (what ANTLR reports: mismatched,
     * extraneous or missing input, no viable alternative, an unknown token) start with {@code Syntax error: },
     * which cel-java leaves out. Type-checker errors are unchanged. cel-java's recursion error becomes cel-go's, which
     * cel-go reports alone and without a location.
     */
    static String syntaxWording(String errors) {
        if (RECURSION_ERROR.matcher(errors).find()) {
            return ParseDepth.ERROR; // cel-go stops at it and reports it alone, with no location
        }
        return ANTLR_ERROR.matcher(errors).replaceAll("$1Syntax error: $2");
    }

    /**
     * Parses, then checks with the constructible types ({@link ObjectTypes}) the parsed expression needs,
     * next to the schema types of the variables.
     */
    private CelValidationResult compileWithObjects(String expression) {
        CelValidationResult parsed = cel.parse(expression);
        if (parsed.hasError()) {
            return parsed;
        }
        dev.cel.common.CelAbstractSyntaxTree ast;
        try {
            ast = parsed.getAst();
        } catch (dev.cel.common.CelValidationException e) {
            throw new CelError(CelError.Kind.COMPILE, "compilation failed: " + e.getMessage());
        }
        dev.cel.common.CelAbstractSyntaxTree unchecked = ast;
        return ObjectTypes.checking(unchecked, () -> cel.check(unchecked));
    }

    Map<String, Variable> variables() {
        return variables;
    }

    /** Declares variables and libraries; {@link #build()} makes the environment. */
    public static final class Builder {

        private final Map<String, Variable> variables = new LinkedHashMap<>();
        private boolean authorizer;
        private boolean objectConstruction;
        private CelLimits limits = CelLimits.KUBE;

        private Builder() {
        }

        /** A variable of a schema's type; JSON values given for it are converted with the schema. */
        public Builder variable(String name, CelSchema schema) {
            variables.put(name, new Variable(name, schema.type(), schema));
            return this;
        }

        /** A variable of the schema's type wrapped in {@code optional} ({@code optionalOldSelf}). */
        public Builder optionalVariable(String name, CelSchema schema) {
            variables.put(name, new Variable(name, OptionalType.create(schema.type()), schema));
            return this;
        }

        /** A variable of a plain CEL type (JSON values given for it are converted without a schema). */
        public Builder variable(String name, CelType type) {
            variables.put(name, new Variable(name, type, null));
            return this;
        }

        /** A {@code dyn} variable. */
        public Builder dynamic(String name) {
            return variable(name, SimpleType.DYN);
        }

        /** A {@code map(string, dyn)} variable. */
        public Builder map(String name) {
            return variable(name, MapType.create(SimpleType.STRING, SimpleType.DYN));
        }

        /**
         * The authorization library and the {@code authorizer} and {@code authorizer.requestResource}
         * variables (values: a {@link CelAuthorizer} and {@link CelAuthorizer#requestResource}).
         */
        public Builder authorizer() {
            this.authorizer = true;
            variables.put("authorizer", new Variable("authorizer", AuthzLibrary.AUTHORIZER, null));
            variables.put("authorizer.requestResource",
                    new Variable("authorizer.requestResource", AuthzLibrary.RESOURCE_CHECK, null));
            return this;
        }

        /**
         * Type construction as kube's mutating admission policies have it: {@code Object{...}},
         * {@code Object.<field>{...}} and {@code JSONPatch{...}} build {@link CelObject}s, and
         * {@code jsonpatch.escapeKey} is declared. Checked as structs of dynamic types ({@link ObjectTypes}),
         * run as calls that make the objects ({@link ObjectConstruction}).
         */
        public Builder objectConstruction() {
            this.objectConstruction = true;
            return this;
        }

        public Builder limits(CelLimits limits) {
            this.limits = limits;
            return this;
        }

        public CelEnvironment build() {
            CelOptions options = CelOptions.current().enableOptionalSyntax(true)
                    .enableHeterogeneousNumericComparisons(true).maxRegexProgramSize(-1).build();
            CelBuilder b = CelFactory.standardCelBuilder().setOptions(options)
                    // the standard library, its matches() replaced by Go's RE2 (RegexLibrary)
                    .setStandardEnvironmentEnabled(false)
                    .setStandardDeclarations(CelStandardDeclarations.newBuilder().build())
                    .setStandardFunctions(CelStandardFunctions.newBuilder()
                            .excludeFunctions(CelStandardFunctions.StandardFunction.MATCHES).build())
                    .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                    .setTypeProvider(objectConstruction
                            ? new ObjectTypes(new StructTypes(structTypes()))
                            : new StructTypes(structTypes()))
                    .addCompilerLibraries(CelExtensions.strings(), CelExtensions.optional(), CelExtensions.bindings(),
                            CelExtensions.sets(options), CelExtensions.comprehensions())
                    .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.optional(),
                            CelExtensions.sets(options), CelExtensions.comprehensions());
            List<CelLibrary> libraries = new ArrayList<>(KUBE_LIBRARIES);
            if (authorizer) {
                libraries.add(new AuthzLibrary());
            }
            if (objectConstruction) {
                libraries.add(new JsonPatchLibrary());
                b.addFunctionBindings(ObjectConstruction.BINDING);
            }
            for (CelLibrary library : libraries) {
                b.addFunctionDeclarations(library.declarations());
                b.addFunctionBindings(library.bindings());
            }
            variables.values().forEach(v -> b.addVar(v.name(), v.type()));
            return new CelEnvironment(b.build(), Map.copyOf(variables), limits, objectConstruction);
        }

        /** Every struct type reachable from the variables, for the checker to find by name. */
        private List<CelType> structTypes() {
            List<CelType> found = new ArrayList<>();
            for (Variable v : variables.values()) {
                CelType t = v.type();
                if (t instanceof OptionalType o) {
                    t = o.parameters().getFirst();
                }
                if (t instanceof StructType) {
                    found.add(t);
                }
            }
            return found;
        }
    }

    /**
     * Finds struct types by name among those reachable from the declared roots, searched breadth-first
     * once per name (schemas may be recursive; each type name is visited once).
     */
    private static final class StructTypes implements CelTypeProvider {

        private final List<CelType> roots;
        private final Map<String, Optional<CelType>> found = new java.util.concurrent.ConcurrentHashMap<>();

        StructTypes(List<CelType> roots) {
            this.roots = roots;
        }

        @Override
        public ImmutableCollection<CelType> types() {
            return ImmutableList.copyOf(roots);
        }

        @Override
        public Optional<CelType> findType(String name) {
            return found.computeIfAbsent(name, this::search);
        }

        private Optional<CelType> search(String name) {
            java.util.ArrayDeque<CelType> queue = new java.util.ArrayDeque<>(roots);
            java.util.Set<String> seen = new java.util.HashSet<>();
            while (!queue.isEmpty()) {
                CelType t = queue.poll();
                if (!seen.add(t.name() + "#" + t.kind())) {
                    continue;
                }
                if (t instanceof StructType st) {
                    if (st.name().equals(name)) {
                        return Optional.of(st);
                    }
                    for (String field : st.fieldNames()) {
                        st.findField(field).ifPresent(f -> queue.add(f.type()));
                    }
                }
                queue.addAll(t.parameters());
            }
            return Optional.empty();
        }
    }
}
