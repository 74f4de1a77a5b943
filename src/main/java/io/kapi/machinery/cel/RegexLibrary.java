package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/** kube's regex library (RE2 syntax, as {@code matches}): {@code "abc".find("[a-z]")}, {@code findAll(re[, n])}. */
final class RegexLibrary implements CelLibrary {

    @Override
    public List<CelFunctionDecl> declarations() {
        return List.of(
                newFunctionDeclaration("find", newMemberOverload("string_find_string", SimpleType.STRING,
                        SimpleType.STRING, SimpleType.STRING)),
                newFunctionDeclaration("findAll",
                        newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING),
                        newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING, SimpleType.INT)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_find_string", String.class, String.class, (s, re) -> {
                    Matcher m = compile(re).matcher(s);
                    return m.find() ? m.group() : "";
                }),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class,
                        (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    }

    private static List<String> findAll(String s, String re, long limit) throws CelEvaluationException {
        List<String> found = new ArrayList<>();
        Matcher m = compile(re).matcher(s);
        while ((limit < 0 || found.size() < limit) && m.find()) {
            found.add(m.group());
        }
        return found;
    }

    private static Pattern compile(String re) throws CelEvaluationException {
        try {
            return Pattern.compile(re);
        } catch (PatternSyntaxException e) {
            throw new CelEvaluationException("error parsing regexp: " + e.getMessage());
        }
    }
}
