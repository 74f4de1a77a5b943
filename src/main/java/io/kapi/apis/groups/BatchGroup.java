package io.kapi.apis.groups;

import io.kapi.apis.JobStrategy;
import io.kapi.apis.defaults.WorkloadDefaults;
import io.kapi.apis.validation.Batch;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.endpoint.table.BatchPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code batch}, as kube's {@code pkg/registry/batch}. */
final class BatchGroup {

    private static final GroupVersion V1 = new GroupVersion("batch", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "CronJob")
                    .defaults(WorkloadDefaults::cronJob)
                    .validation(Batch.CRON_JOB)
                    .status(StatusPolicy.EMPTY)
                    .printer(BatchPrinters::cronJobs)
                    .podTemplate("spec", "jobTemplate", "spec", "template"),
            BuiltinKind.of(V1, "Job")
                    .defaults(WorkloadDefaults::job)
                    .validation(Batch.JOB)
                    .status(StatusPolicy.EMPTY)
                    .strategy((base, server) -> new JobStrategy(base))
                    .printer(BatchPrinters::jobs)
                    .podTemplate("spec", "template"));

    private BatchGroup() {
    }
}
