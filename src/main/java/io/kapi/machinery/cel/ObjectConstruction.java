package io.kapi.machinery.cel;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.runtime.CelFunctionBinding;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a checked expression builds {@link CelObject}s. cel-java's interpreter creates structs only as
 * protobuf messages, so after type checking (which saw {@code Object.spec{...}} as a struct of its
 * dynamic type, {@link ObjectTypes}) each construction of a constructible type is replaced by a call
 * {@code newObject("<type>", {"<field>": <value>, ...})} bound to {@link #BINDING}: same node id, same
 * checked type, the entries' values (and optional entries) kept. Nothing else in the tree changes.
 */
final class ObjectConstruction {

    private static final String OVERLOAD = "kapi_new_object";
    private static final String FUNCTION = "kapi.newObject";

    /** The runtime function the rewritten constructions call. */
    static final CelFunctionBinding BINDING = CelFunctionBinding.from(OVERLOAD, String.class, Map.class,
            (type, fields) -> {
                Map<String, Object> named = new java.util.LinkedHashMap<>();
                fields.forEach((k, v) -> named.put((String) k, v));
                return new CelObject(type, named);
            });

    private final Map<Long, CelReference> references;
    private long nextId;

    private ObjectConstruction(CelAbstractSyntaxTree checked) {
        this.references = new HashMap<>(checked.getReferenceMap());
        this.nextId = maxId(checked.getExpr()) + 1;
    }

    /** The checked {@code ast} with its constructions of constructible types as calls; itself when it has none. */
    static CelAbstractSyntaxTree rewrite(CelAbstractSyntaxTree checked) {
        ObjectConstruction r = new ObjectConstruction(checked);
        CelExpr rewritten = r.visit(checked.getExpr());
        if (rewritten == checked.getExpr()) {
            return checked;
        }
        return CelAbstractSyntaxTree.newCheckedAst(rewritten, checked.getSource(), r.references,
                checked.getTypeMap());
    }

    private CelExpr visit(CelExpr e) {
        return switch (e.getKind()) {
            case SELECT -> {
                CelExpr operand = visit(e.select().operand());
                yield operand == e.select().operand() ? e
                        : CelExpr.ofSelect(e.id(), operand, e.select().field(), e.select().testOnly());
            }
            case CALL -> {
                Optional<CelExpr> target = e.call().target().map(this::visit);
                ImmutableList<CelExpr> args = visitAll(e.call().args());
                boolean same = args == e.call().args() && target.equals(e.call().target());
                yield same ? e : CelExpr.ofCall(e.id(), target, e.call().function(), args);
            }
            case LIST -> {
                ImmutableList<CelExpr> elements = visitAll(e.list().elements());
                yield elements == e.list().elements() ? e
                        : CelExpr.ofList(e.id(), elements, e.list().optionalIndices());
            }
            case MAP -> {
                ImmutableList.Builder<CelExpr.CelMap.Entry> entries = ImmutableList.builder();
                boolean changed = false;
                for (CelExpr.CelMap.Entry entry : e.map().entries()) {
                    CelExpr key = visit(entry.key());
                    CelExpr value = visit(entry.value());
                    changed |= key != entry.key() || value != entry.value();
                    entries.add(CelExpr.ofMapEntry(entry.id(), key, value, entry.optionalEntry()));
                }
                yield changed ? CelExpr.ofMap(e.id(), entries.build()) : e;
            }
            case STRUCT -> struct(e);
            case COMPREHENSION -> comprehension(e);
            default -> e;
        };
    }

    private CelExpr struct(CelExpr e) {
        CelExpr.CelStruct s = e.struct();
        if (!CelObject.constructible(s.messageName())) {
            ImmutableList.Builder<CelExpr.CelStruct.Entry> entries = ImmutableList.builder();
            for (CelExpr.CelStruct.Entry entry : s.entries()) {
                entries.add(CelExpr.ofStructEntry(entry.id(), entry.fieldKey(), visit(entry.value()),
                        entry.optionalEntry()));
            }
            return CelExpr.ofStruct(e.id(), s.messageName(), entries.build());
        }
        ImmutableList.Builder<CelExpr.CelMap.Entry> fields = ImmutableList.builder();
        for (CelExpr.CelStruct.Entry entry : s.entries()) {
            CelExpr key = CelExpr.ofConstant(nextId++, CelConstant.ofValue(entry.fieldKey()));
            fields.add(CelExpr.ofMapEntry(entry.id(), key, visit(entry.value()), entry.optionalEntry()));
        }
        CelExpr type = CelExpr.ofConstant(nextId++, CelConstant.ofValue(s.messageName()));
        CelExpr map = CelExpr.ofMap(nextId++, fields.build());
        references.put(e.id(), CelReference.newBuilder().setName(FUNCTION).addOverloadIds(OVERLOAD).build());
        return CelExpr.ofCall(e.id(), Optional.empty(), FUNCTION, ImmutableList.of(type, map));
    }

    private CelExpr comprehension(CelExpr e) {
        CelExpr.CelComprehension c = e.comprehension();
        CelExpr range = visit(c.iterRange());
        CelExpr init = visit(c.accuInit());
        CelExpr condition = visit(c.loopCondition());
        CelExpr step = visit(c.loopStep());
        CelExpr result = visit(c.result());
        if (range == c.iterRange() && init == c.accuInit() && condition == c.loopCondition() && step == c.loopStep()
                && result == c.result()) {
            return e;
        }
        return CelExpr.ofComprehension(e.id(), c.iterVar(), c.iterVar2(), range, c.accuVar(), init, condition, step,
                result);
    }

    /** The same list when no element changed. */
    private ImmutableList<CelExpr> visitAll(ImmutableList<CelExpr> exprs) {
        ImmutableList.Builder<CelExpr> out = ImmutableList.builder();
        boolean changed = false;
        for (CelExpr x : exprs) {
            CelExpr y = visit(x);
            changed |= y != x;
            out.add(y);
        }
        return changed ? out.build() : exprs;
    }

    private static long maxId(CelExpr root) {
        return dev.cel.common.navigation.CelNavigableExpr.fromExpr(root).allNodes()
                .mapToLong(n -> Math.max(n.id(), n.expr().getKind() == CelExpr.ExprKind.Kind.STRUCT
                        ? n.expr().struct().entries().stream().mapToLong(CelExpr.CelStruct.Entry::id).max().orElse(0)
                        : n.expr().getKind() == CelExpr.ExprKind.Kind.MAP
                        ? n.expr().map().entries().stream().mapToLong(CelExpr.CelMap.Entry::id).max().orElse(0) : 0))
                .max().orElse(0);
    }
}
