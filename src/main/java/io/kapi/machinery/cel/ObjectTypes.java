package io.kapi.machinery.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checker's view of the types CEL may construct in a mutation (kube's {@code DynamicTypeResolver}):
 * {@code Object} and every {@code Object.<field>...} are structs whose fields are all {@code dyn} — any
 * name is a field, as kube's dynamic object type allows; {@code JSONPatch} has {@code op}, {@code path}
 * and {@code from} (strings) and {@code value} ({@code dyn}). cel-java's struct types list their field
 * names, so while one expression is checked ({@link #checking}) the dynamic types have exactly the names
 * that expression uses in a construction or a selection: the checker asks about no others. One
 * provider serves every expression of an environment; the names are scoped to the checking thread.
 */
final class ObjectTypes implements CelTypeProvider {

    private static final ScopedValue<ImmutableSet<String>> FIELD_NAMES = ScopedValue.newInstance();

    private static final StructType JSON_PATCH = StructType.create(CelObject.JSON_PATCH,
            ImmutableSet.of("op", "path", "from", "value"), field -> switch (field) {
                case "op", "path", "from" -> Optional.of(SimpleType.STRING);
                case "value" -> Optional.of(SimpleType.DYN);
                default -> Optional.empty();
            });

    private final CelTypeProvider schemaTypes;

    /** @param schemaTypes the types of the declared variables, asked for every other name */
    ObjectTypes(CelTypeProvider schemaTypes) {
        this.schemaTypes = schemaTypes;
    }

    /** Runs {@code check} with the field names {@code parsed} (not yet checked) uses. */
    static <T> T checking(CelAbstractSyntaxTree parsed, java.util.function.Supplier<T> check) {
        return ScopedValue.where(FIELD_NAMES, fieldNames(parsed)).call(check::get);
    }

    private static ImmutableSet<String> fieldNames(CelAbstractSyntaxTree parsed) {
        Set<String> names = new TreeSet<>();
        CelNavigableAst.fromAst(parsed).getRoot().allNodes().forEach(node -> {
            CelExpr e = node.expr();
            switch (e.getKind()) {
                case STRUCT -> e.struct().entries().forEach(entry -> names.add(entry.fieldKey()));
                case SELECT -> names.add(e.select().field());
                default -> {
                }
            }
        });
        return ImmutableSet.copyOf(names);
    }

    @Override
    public ImmutableCollection<CelType> types() {
        return ImmutableList.<CelType>builder().add(JSON_PATCH).addAll(schemaTypes.types()).build();
    }

    @Override
    public Optional<CelType> findType(String name) {
        if (name.equals(CelObject.JSON_PATCH)) {
            return Optional.of(JSON_PATCH);
        }
        if (CelObject.constructible(name)) {
            ImmutableSet<String> names = FIELD_NAMES.isBound() ? FIELD_NAMES.get() : ImmutableSet.of();
            return Optional.of(StructType.create(name, names, field -> Optional.of(SimpleType.DYN)));
        }
        return schemaTypes.findType(name);
    }
}
