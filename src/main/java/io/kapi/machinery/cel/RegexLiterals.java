package io.kapi.machinery.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelSourceLocation;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import io.kapi.machinery.regex.GoRegexp;
import java.util.List;
import java.util.Optional;

/**
 * Regular expressions written as literals are compiled with the expression, as kube's CEL environment does
 * since 1.29 ({@code cel.ValidateRegexLiterals()}): the first argument of every {@code matches} call that is a
 * string constant must be a pattern Go's RE2 accepts, or the expression is refused at compile time with cel-go's
 * {@code invalid matches argument} at that argument. A pattern that arrives at run time fails there instead.
 */
final class RegexLiterals {

    private RegexLiterals() {
    }

    /** The issues of {@code ast}'s literal patterns, displayed as cel-go displays them; empty when there are none. */
    static Optional<String> errors(CelAbstractSyntaxTree ast) {
        List<CelIssue> issues = CelNavigableAst.fromAst(ast).getRoot().allNodes()
                .map(node -> node.expr())
                .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("matches")
                        && !e.call().args().isEmpty())
                .map(e -> e.call().args().get(0))
                .filter(arg -> arg.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                        && arg.constant().getKind() == CelConstant.Kind.STRING_VALUE
                        && GoRegexp.error(arg.constant().stringValue()).isPresent())
                .map(arg -> CelIssue.formatError(arg.id(), location(ast, arg), "invalid matches argument"))
                .toList();
        return issues.isEmpty() ? Optional.empty() : Optional.of(CelIssue.toDisplayString(issues, ast.getSource()));
    }

    private static CelSourceLocation location(CelAbstractSyntaxTree ast, CelExpr expr) {
        Integer offset = ast.getSource().getPositionsMap().get(expr.id());
        return offset == null ? CelSourceLocation.NONE
                : ast.getSource().getOffsetLocation(offset).orElse(CelSourceLocation.NONE);
    }
}
