package io.kapi.machinery.cel;

/**
 * kube-apiserver's CEL cost limits ({@code k8s.io/apiserver/pkg/apis/cel}).
 *
 * @param perCallLimit the most one evaluation of one expression may cost ({@code PerCallLimit})
 * @param runtimeBudget what all expressions of one policy binding, or of one custom resource's
 *        validation, may cost together ({@code RuntimeCELCostBudget})
 * @param matchConditionsBudget the budget of a webhook's or binding's match conditions
 * @param staticCostLimit the most one expression's estimated cost may be when it is written
 *        ({@code StaticEstimatedCostLimit}, CRD validation rules)
 * @param staticCrdCostLimit the most the estimated costs of all rules of a CRD may add up to
 * @param maxRequestSizeBytes the size unbounded lists, maps and strings are estimated with
 */
public record CelLimits(long perCallLimit, long runtimeBudget, long matchConditionsBudget, long staticCostLimit,
                        long staticCrdCostLimit, long maxRequestSizeBytes) {

    /** kube's values. */
    public static final CelLimits KUBE = new CelLimits(1_000_000, 10_000_000, 2_500_000, 10_000_000,
            100_000_000, 3 * 1024 * 1024);
}
