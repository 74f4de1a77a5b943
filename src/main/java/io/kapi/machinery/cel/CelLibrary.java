package io.kapi.machinery.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/** One of kube's CEL function libraries: what the checker knows and what the runtime calls. */
interface CelLibrary {

    List<CelFunctionDecl> declarations();

    List<CelFunctionBinding> bindings();
}
